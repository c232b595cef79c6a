/**
 * What `matches` means upstream (docs/design.md, `UPSTREAM_MATCHES`): the whole value or any part of it,
 * a regular expression or plain equality; whether it minds case, reads the gateway's `\xhh`/`\uhhhh`
 * escapes, treats fields as it treats `_id`, walks dotted paths, and (for a part-matching upstream) honours
 * the gateway's `\A(?:…)\z` anchoring. Every probe aims at one sampled record and asks whether it matches.
 */
import { NOTHING } from '../filters/literal-pattern.ts';
import { anchorForFind } from '../upstream/anchor-for-find.ts';
import { escapeJavaRegex } from '../upstream/regex-escape.ts';
import type { MatchesMode, UpstreamRecord } from '../upstream/types.ts';
import type { CheckContext } from './check-context.ts';
import { matches, probeFilter, type ProbeAnswer } from './filter-probe.ts';

/** Text that reads the same as a Java regular expression and as a plain string (`-` is literal outside a class). */
const PLAIN = /^[A-Za-z0-9_ -]+$/;

const asPattern = (text: string) => (PLAIN.test(text) ? text : escapeJavaRegex(text));
const swapCase = (text: string) =>
  text.replace(/[A-Za-z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));

/** A sampled record whose id can be aimed at, preferring ids that read the same in every dialect. */
function pickTarget(sample: readonly UpstreamRecord[]): UpstreamRecord | undefined {
  return sample.find((r) => r._id.length >= 2 && PLAIN.test(r._id)) ?? sample.find((r) => r._id.length >= 2);
}

/** A top-level (or, with `nested`, one-level-deep) plain text field of `record`, at least two characters. */
function plainField(record: UpstreamRecord, nested: boolean): { path: string; value: string } | undefined {
  for (const [key, value] of Object.entries(record)) {
    if (key === '_id' || !/^[A-Za-z_$][\w$]*$/.test(key)) continue;
    if (!nested && typeof value === 'string' && value.length >= 2 && PLAIN.test(value))
      return { path: key, value };
    if (nested && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [inner, leaf] of Object.entries(value as Record<string, unknown>)) {
        if (
          /^[A-Za-z_$][\w$]*$/.test(inner) &&
          typeof leaf === 'string' &&
          leaf.length >= 2 &&
          PLAIN.test(leaf)
        ) {
          return { path: `${key}.${inner}`, value: leaf };
        }
      }
    }
  }
  return undefined;
}

type Seen = (answer: ProbeAnswer) => boolean | undefined;
const seen: Seen = (answer) => (answer.ok ? answer.includes : undefined);

/** The mode the four `_id` probes describe, or why none does. */
function modeOf(exact: boolean, prefix: boolean, dot: boolean): { mode: MatchesMode } | { why: string } {
  if (!exact) return { why: "a record's own id does not match it" };
  if (!prefix && dot) return { mode: 'regex' };
  if (prefix && dot) return { mode: 'find' };
  if (!prefix && !dot) return { mode: 'exact' };
  return { why: 'matches finds plain text anywhere in the value (no regular expression, no equality)' };
}

/** Runs the matches probes (about 12 reads). */
export async function probeMatches(context: CheckContext, objectName: string): Promise<void> {
  const record = pickTarget(context.learnt.sample);
  if (record === undefined) {
    context.report({
      topic: 'matches semantics',
      verdict: 'cannot-tell',
      detail: `no record of ${objectName} to aim at`,
    });
    return;
  }
  context.learnt.target = record;
  const id = record._id;
  const probe = (criteria: Parameters<typeof probeFilter>[2]) =>
    probeFilter(context, objectName, criteria, id);
  const idPattern = asPattern(id);
  const byId = matches('_id', idPattern);

  const nothing = await probe([matches('_id', NOTHING)]);
  if (nothing.ok && nothing.totalCount > 0) {
    context.report({
      topic: 'matches semantics',
      verdict: 'cannot-serve',
      detail: `a pattern no text matches answered ${nothing.totalCount} records: filters are ignored`,
    });
    return;
  }
  const exact = seen(await probe([byId]));
  const prefixPattern = asPattern(id.slice(0, -1));
  const prefix = seen(await probe([matches('_id', prefixPattern)]));
  const dot = seen(await probe([matches('_id', `${prefixPattern}.`)]));
  if (exact === undefined || prefix === undefined || dot === undefined) {
    context.report({
      topic: 'matches semantics',
      verdict: 'cannot-tell',
      detail: 'a filter probe failed (see the other findings)',
    });
    return;
  }
  const found = modeOf(exact, prefix, dot);
  if ('why' in found) {
    context.report({ topic: 'matches semantics', verdict: 'cannot-serve', detail: found.why });
    return;
  }
  const { mode } = found;
  const described = {
    regex: 'a regular expression matching the whole value (String.matches)',
    find: 'a regular expression found in any part of the value (Matcher.find, $regex)',
    exact: 'plain equality with the whole value',
  }[mode];
  let anchoring = '';
  if (mode === 'find') {
    const anchoredPrefix = seen(await probe([matches('_id', anchorForFind(prefixPattern))]));
    const anchoredWhole = seen(await probe([matches('_id', anchorForFind(idPattern))]));
    if (anchoredPrefix !== false || anchoredWhole !== true) {
      context.report({
        topic: 'matches semantics',
        verdict: 'cannot-serve',
        detail: `${described}, and \\A(?:…)\\z does not anchor it`,
      });
      return;
    }
    anchoring = '; \\A(?:…)\\z anchors it, so the gateway keeps its operators exact';
  }
  context.learnt.matches = mode;
  context.report({
    topic: 'matches semantics',
    verdict: mode === context.config.matchesMode ? 'as-assumed' : 'differs',
    detail: `${described}${anchoring}`,
    settings: { UPSTREAM_MATCHES: mode },
  });
  await probeDetails(context, probe, { id, idPattern, mode, record });
}

interface Aim {
  id: string;
  idPattern: string;
  mode: MatchesMode;
  record: UpstreamRecord;
}

async function probeDetails(
  context: CheckContext,
  probe: (criteria: Parameters<typeof probeFilter>[2]) => Promise<ProbeAnswer>,
  { id, idPattern, mode, record }: Aim,
): Promise<void> {
  const byId = matches('_id', idPattern);
  if (/[A-Za-z]/.test(idPattern)) {
    const other = seen(await probe([matches('_id', swapCase(idPattern))]));
    context.report(
      other === true
        ? {
            topic: 'matches case',
            verdict: 'cannot-serve',
            detail: 'matches ignores case: equals would answer other cases too',
          }
        : {
            topic: 'matches case',
            verdict: other === undefined ? 'cannot-tell' : 'as-assumed',
            detail: 'case-sensitive',
          },
    );
  }
  const first = id.charAt(0);
  if (mode !== 'exact' && idPattern === id && /^[A-Za-z0-9]$/.test(first)) {
    const hex = first.charCodeAt(0).toString(16).padStart(2, '0');
    const x = seen(await probe([matches('_id', `\\x${hex}${id.slice(1)}`)]));
    const u = seen(await probe([matches('_id', `\\u00${hex}${id.slice(1)}`)]));
    context.report(
      x === true && u === true
        ? {
            topic: 'regex escapes',
            verdict: 'as-assumed',
            detail: 'reads \\xhh and \\uhhhh as the gateway writes them',
          }
        : {
            topic: 'regex escapes',
            verdict: x === undefined || u === undefined ? 'cannot-tell' : 'cannot-serve',
            detail: `\\xhh ${x === true ? 'read' : 'not read'}, \\uhhhh ${u === true ? 'read' : 'not read'}: the gateway escapes spaces, -, &, ~, # and invisible characters so`,
          },
    );
  }
  const field = plainField(record, false);
  if (field !== undefined) {
    const whole = seen(await probe([byId, matches(field.path, field.value)]));
    const part = seen(await probe([byId, matches(field.path, field.value.slice(0, -1))]));
    const agrees = whole === true && part === (mode === 'find');
    context.report({
      topic: 'matches on fields',
      verdict:
        whole === undefined || part === undefined ? 'cannot-tell' : agrees ? 'as-assumed' : 'cannot-serve',
      detail: agrees
        ? `"${field.path}" matches as _id does; criteria combine with AND`
        : `"${field.path}" does not match as _id does`,
    });
  }
  const nested = plainField(record, true);
  if (nested === undefined) {
    context.report({
      topic: 'dotted paths',
      verdict: 'cannot-tell',
      detail: 'the record has no nested text field',
    });
    return;
  }
  const walked = seen(await probe([byId, matches(nested.path, nested.value)]));
  context.report({
    topic: 'dotted paths',
    verdict: walked === undefined ? 'cannot-tell' : walked ? 'as-assumed' : 'cannot-serve',
    detail: walked
      ? `"${nested.path}" walks into the nested object`
      : `"${nested.path}" finds nothing: ref and dotted filters would answer nothing`,
  });
}
