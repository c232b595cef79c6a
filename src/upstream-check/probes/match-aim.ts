/**
 * What the matches probes share: which text reads the same in every dialect, and the record they aim at.
 */
import { escapeJavaRegex } from '../../upstream/pattern-guard/regex-escape.ts';
import type { Criterion, MatchesMode, UpstreamRecord } from '../../upstream/client/types.ts';
import type { MatchesDialect } from '../../upstream/dialect/matches-pattern.ts';
import { isExactNumber } from '../../upstream/dialect/exact-json.ts';
import type { ProbeAnswer } from './filter-probe.ts';

/** Text that reads the same as a Java regular expression and as a plain string (`-` is literal outside a class). */
export const PLAIN = /^[A-Za-z0-9_ -]+$/;

/** `text` as a pattern matching only itself: as it is when {@link PLAIN}, else escaped. */
export const asPattern = (text: string): string => (PLAIN.test(text) ? text : escapeJavaRegex(text));

/** Whether the aimed-at record matched; `undefined` when the probe failed. */
export const seen = (answer: ProbeAnswer): boolean | undefined => (answer.ok ? answer.includes : undefined);

/** One filter probe aimed at the record; `framed`: its values framed as the gateway frames them for that dialect. */
export type Probe = (criteria: Criterion[], framed?: MatchesDialect) => Promise<ProbeAnswer>;

/** The record the probes aim at, and what the first probes found. */
export interface Aim {
  id: string;
  idPattern: string;
  mode: MatchesMode;
  record: UpstreamRecord;
}

/** A field name the upstream's dotted paths can reach (MongoDB's extended JSON keys, `$oid`, are not fields). */
const FIELD_NAME = /^[A-Za-z_][\w$]*$/;

/**
 * A top-level (or, with `nested`, one-level-deep) plain text field of `record`, at least two characters.
 * Never a path into the gateway's own wrappers: a long past 2^53 is read as an exact number (a `{ rawJSON }`
 * object the upstream never held), and a `{"$oid": …}` or `{"$date": …}` is one value, not an object.
 */
export function plainField(
  record: UpstreamRecord,
  nested: boolean,
): { path: string; value: string } | undefined {
  for (const [key, value] of Object.entries(record)) {
    if (key === '_id' || !FIELD_NAME.test(key)) continue;
    if (!nested && typeof value === 'string' && value.length >= 2 && PLAIN.test(value))
      return { path: key, value };
    if (
      nested &&
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      !isExactNumber(value)
    ) {
      for (const [inner, leaf] of Object.entries(value as Record<string, unknown>)) {
        if (FIELD_NAME.test(inner) && typeof leaf === 'string' && leaf.length >= 2 && PLAIN.test(leaf)) {
          return { path: `${key}.${inner}`, value: leaf };
        }
      }
    }
  }
  return undefined;
}
