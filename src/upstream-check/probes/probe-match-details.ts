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

const swapCase = (text: string) =>
  text.replace(/[A-Za-z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));

/** The case, escape, field, AND and dotted-path probes (up to 7 reads), once the mode is known. */
export async function probeMatchDetails(
  context: CheckContext,
  probe: Probe,
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
