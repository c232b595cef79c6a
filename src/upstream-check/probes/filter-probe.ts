/**
 * One filter probe: a getAll whose patterns have passed the gateway's pattern guard, answering whether the
 * aimed-at record is among the matches. A pattern the guard refuses is never sent.
 */
import { isUpstreamError } from '../../errors/upstream-error.ts';
import type { Criterion } from '../../upstream/client/types.ts';
import { framePattern, type MatchesDialect } from '../../upstream/dialect/matches-pattern.ts';
import type { CheckContext } from '../check-context.ts';

/** Records read per probe: enough to find the aimed-at record among a few that share a prefix. */
const PROBE_PAGE_SIZE = 100;

/** What a probe saw. */
export type ProbeAnswer =
  | { ok: true; includes: boolean; totalCount: number }
  | {
      ok: false;
      why: string;
      /** The upstream refused it with `status: error` (its message kept). */ message?: string;
    };

/** `fieldName matches value`. */
export const matches = (fieldName: string, value: string): Criterion => ({
  fieldName,
  operator: 'matches',
  value,
});

/**
 * Runs `criteria` (each value checked by the guard first) and looks for the record `_id`. With `framed`, each
 * value goes out as the gateway frames it for that dialect (`(?-i)`, `\A(?:…)\z`), after the guard, as the
 * gateway's own client does.
 */
export async function probeFilter(
  context: Pick<CheckContext, 'client' | 'guard' | 'credentials' | 'learnt'>,
  objectName: string,
  criteria: readonly Criterion[],
  id: string,
  framed?: MatchesDialect,
): Promise<ProbeAnswer> {
  for (const { value } of criteria) {
    const verdict = await context.guard.check(value);
    if (!verdict.ok) return { ok: false, why: `not sent: the pattern guard refuses it (${verdict.reason})` };
  }
  const sent =
    framed === undefined
      ? [...criteria]
      : criteria.map((c) => ({ ...c, value: framePattern(c.value, framed) }));
  try {
    const page = await context.client.getAll(
      context.credentials,
      objectName,
      sent,
      PROBE_PAGE_SIZE,
      context.learnt.firstPageStart,
    );
    return { ok: true, includes: page.records.some((r) => r._id === id), totalCount: page.totalCount };
  } catch (error) {
    if (!isUpstreamError(error)) throw error;
    return {
      ok: false,
      why: error.message,
      ...(error.upstreamMessage === undefined ? {} : { message: error.upstreamMessage }),
    };
  }
}
