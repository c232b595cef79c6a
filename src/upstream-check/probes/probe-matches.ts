/**
 * What `matches` means upstream (docs/design.md, `UPSTREAM_MATCHES`): the whole value or any part of it,
 * a regular expression or plain equality; whether it minds case, reads the gateway's `\xhh`/`\uhhhh`
 * escapes, treats fields as it treats `_id`, walks dotted paths, and (for a part-matching upstream) honours
 * the gateway's `\A(?:…)\z` anchoring. Every probe aims at one sampled record and asks whether it matches.
 */
import { cannotTell } from './finding.ts';
import { NOTHING } from '../../filters/literal-pattern.ts';
import { anchorForFind } from '../../upstream/dialect/matches-pattern.ts';
import type { MatchesMode, UpstreamRecord } from '../../upstream/client/types.ts';
import type { CheckContext } from '../check-context.ts';
import { matches, probeFilter } from './filter-probe.ts';
import { asPattern, PLAIN, seen, type Probe } from './match-aim.ts';
import { probeMatchDetails } from './probe-match-details.ts';

/** A sampled record whose id can be aimed at, preferring ids that read the same in every dialect. */
function pickTarget(sample: readonly UpstreamRecord[]): UpstreamRecord | undefined {
  return sample.find((r) => r._id.length >= 2 && PLAIN.test(r._id)) ?? sample.find((r) => r._id.length >= 2);
}

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
    context.report(cannotTell('matches semantics', `no record of ${objectName} to aim at`));
    return;
  }
  context.learnt.target = record;
  const id = record._id;
  const probe: Probe = (criteria, framed) => probeFilter(context, objectName, criteria, id, framed);
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
    context.report(cannotTell('matches semantics', 'a filter probe failed (see the other findings)'));
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
  await probeMatchDetails(context, probe, { id, idPattern, mode, record });
}
