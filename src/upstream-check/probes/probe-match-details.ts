/**
 * The finer points of `matches`, once its mode is known: whether it minds case, reads the `\xhh`/`\uhhhh`
 * escapes the gateway writes, treats a text field as it treats `_id`, combines criteria with AND, and walks
 * dotted paths.
 */
import { cannotTell } from './finding.ts';
import { NOTHING } from '../../filters/literal-pattern.ts';
import type { CheckContext } from '../check-context.ts';
import { matches } from './filter-probe.ts';
import { plainField, seen, type Aim, type Probe } from './match-aim.ts';
import type { Finding } from './finding.ts';

const swapCase = (text: string) =>
  text.replace(/[A-Za-z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));

const TOPIC = 'matches case';

/**
 * Whether `matches` minds case (`UPSTREAM_MATCHES_CASE`): the record's id with its case swapped; when that
 * finds the record, the same after `(?-i)` framed as the gateway sends it, and the id itself so framed (it
 * must still match). Up to 3 reads.
 */
async function matchesCase(context: CheckContext, probe: Probe, { idPattern, mode }: Aim): Promise<Finding> {
  const setting = context.config.matchesCase;
  const swapped = matches('_id', swapCase(idPattern));
  const other = seen(await probe([swapped]));
  if (other === undefined) return cannotTell(TOPIC, 'the probe with the id in another case failed');
  if (!other) {
    // The default, written only when it changes a setting (the settings a default upstream needs stay few).
    return setting === 'sensitive'
      ? { topic: TOPIC, verdict: 'as-assumed', detail: 'case-sensitive' }
      : {
          topic: TOPIC,
          verdict: 'differs',
          detail: 'case-sensitive: (?-i) is not needed',
          settings: { UPSTREAM_MATCHES_CASE: 'sensitive' },
        };
  }
  if (mode === 'exact') {
    return {
      topic: TOPIC,
      verdict: 'cannot-serve',
      detail:
        'plain equality that ignores case: no pattern can carry (?-i), so equals would answer other cases too',
    };
  }
  const framed = { matchesMode: mode, matchesCase: 'insensitive' } as const;
  const flaggedOther = seen(await probe([swapped], framed));
  const flaggedOwn = seen(await probe([matches('_id', idPattern)], framed));
  if (flaggedOther === false && flaggedOwn === true) {
    return {
      topic: TOPIC,
      verdict: setting === 'insensitive' ? 'as-assumed' : 'differs',
      detail:
        'ignores case (Pattern.CASE_INSENSITIVE); (?-i) first makes it case-sensitive, so the gateway keeps equals exact',
      settings: { UPSTREAM_MATCHES_CASE: 'insensitive' },
    };
  }
  const why =
    flaggedOther === undefined || flaggedOwn === undefined
      ? 'a pattern after (?-i) was refused'
      : flaggedOther
        ? 'it still answers another case after (?-i)'
        : 'after (?-i) the id no longer matches itself';
  return {
    topic: TOPIC,
    verdict: 'cannot-serve',
    detail: `matches ignores case and ${why}: equals would answer other cases too`,
  };
}

/** The case, escape, field, AND and dotted-path probes (up to 9 reads), once the mode is known. */
export async function probeMatchDetails(
  context: CheckContext,
  probe: Probe,
  { id, idPattern, mode, record }: Aim,
): Promise<void> {
  const byId = matches('_id', idPattern);
  if (/[A-Za-z]/.test(idPattern))
    context.report(await matchesCase(context, probe, { id, idPattern, mode, record }));
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
      detail: agrees ? `"${field.path}" matches as _id does` : `"${field.path}" does not match as _id does`,
    });
  }
  // The record matches `byId`; with a criterion it cannot match beside it, AND answers nothing, OR the record.
  const both = seen(await probe([byId, matches('_id', NOTHING)]));
  context.report(
    both === true
      ? { topic: 'criteria combined', verdict: 'cannot-serve', detail: 'with OR: every filter would widen' }
      : {
          topic: 'criteria combined',
          verdict: both === undefined ? 'cannot-tell' : 'as-assumed',
          detail: 'with AND',
        },
  );
  const nested = plainField(record, true);
  if (nested === undefined) {
    context.report(cannotTell('dotted paths', 'the record has no nested text field'));
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
