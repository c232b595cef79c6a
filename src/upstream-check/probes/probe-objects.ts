/**
 * getObject and metadata (docs/design.md, "getObject's answer", "metadata payload"), read through the
 * gateway's own client: the shapes it accepts are the shapes checked.
 */
import { cannotTell } from './finding.ts';
import { isUpstreamError } from '../../errors/upstream-error.ts';
import { escapeJavaRegex } from '../../upstream/pattern-guard/regex-escape.ts';
import type { CheckContext } from '../check-context.ts';
import { matches } from './filter-probe.ts';

/** The pattern matching exactly `id` in the mode found (plain equality sends the id itself). */
export function idPatternFor(context: Pick<CheckContext, 'config' | 'learnt'>, id: string): string {
  return (context.learnt.matches ?? context.config.matchesMode) === 'exact' ? id : escapeJavaRegex(id);
}

/** Runs getObject and metadata on the record the matches probes aimed at (2 reads). */
export async function probeObjects(context: CheckContext, objectName: string): Promise<void> {
  const record = context.learnt.target ?? context.learnt.sample[0];
  if (record === undefined) {
    context.report(cannotTell('getObject', 'no record to read'));
    context.report(cannotTell('metadata', 'no record to read'));
    return;
  }
  const pattern = idPatternFor(context, record._id);
  const verdict = await context.guard.check(pattern);
  if (!verdict.ok) {
    context.report(cannotTell('getObject', 'the id pattern was refused by the guard'));
  } else {
    try {
      const found = await context.client.getObject(context.credentials, objectName, [
        matches('_id', pattern),
      ]);
      context.report(
        found?._id === record._id
          ? { topic: 'getObject', verdict: 'as-assumed', detail: '{status, data: [the record]}' }
          : {
              topic: 'getObject',
              verdict: 'cannot-tell',
              detail: 'answered the read shape without the record',
            },
      );
    } catch (error) {
      if (!isUpstreamError(error)) throw error;
      context.report({ topic: 'getObject', verdict: 'cannot-serve', detail: error.message });
    }
  }
  try {
    const data = await context.client.getMetadata(context.credentials, record._id, 'none');
    const shape =
      typeof data === 'object' && data !== null && !Array.isArray(data)
        ? `an object with ${Object.keys(data).slice(0, 8).join(', ') || 'no fields'}`
        : Array.isArray(data)
          ? 'an array'
          : typeof data;
    context.report({
      topic: 'metadata',
      verdict: 'as-assumed',
      detail: `{status, data}: data is ${shape}, passed through as JSON`,
    });
  } catch (error) {
    if (!isUpstreamError(error)) throw error;
    const verdict =
      error.blame === 'upstream_health' || error.blame === 'gateway' ? 'cannot-serve' : 'cannot-tell';
    context.report({ topic: 'metadata', verdict, detail: error.message });
  }
}
