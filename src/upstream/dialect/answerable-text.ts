/**
 * Text the upstream could store but never give back. An upstream that answers in ISO-8859-1 (or windows-1252)
 * writes `?` for every character its charset lacks (Java's encoder does), and the gateway cannot tell that `?`
 * from a real one: a save of Greek text would succeed and read back as `????????`, silently. So once the
 * upstream has answered in such a charset, a write holding a character it lacks is refused before it is sent,
 * naming the field: the caller's text cannot make the round trip. Until the upstream has answered once, nothing
 * is known and nothing is refused (`npm run upstream:check` says so beforehand).
 */
import { invalidInput } from '../../errors/upstream-error.ts';
import type { AnswerCharset } from './answer-charset.ts';

/** A character ISO-8859-1 lacks (a code unit past U+00FF: surrogates included). */
const BEYOND_LATIN1 = /[\u0100-\uffff]/;
/** A lone surrogate as JSON.stringify escapes it (a `\\` before it would make it a backslash and text). */
const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;
/** What windows-1252 has at 0x80–0x9F instead of ISO-8859-1's C1 controls (0x81, 0x8D, 0x8F, 0x90, 0x9D unassigned). */
const WINDOWS_1252_EXTRA = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';
/** A character windows-1252 lacks: a C1 control, or past U+00FF and not one of its 27 there. */
const BEYOND_WINDOWS_1252 = new RegExp(`[^\\p{ASCII}\\u00a0-\\u00ff${WINDOWS_1252_EXTRA}]`, 'u');

/**
 * Throws `invalid_input` (`BAD_USER_INPUT`) when `data` holds a character the upstream's answer charset lacks.
 * `json` (the write's `data` as JSON) is tested first: `data` is walked only when it may hold one.
 */
export function checkAnswerable(
  operation: string,
  data: Readonly<Record<string, unknown>>,
  json: string,
  charset: AnswerCharset,
): void {
  if (charset === 'utf-8') return;
  const beyond = charset === 'iso-8859-1' ? BEYOND_LATIN1 : BEYOND_WINDOWS_1252;
  // JSON.stringify writes a lone surrogate as `\udXXX`: only then, or past ASCII, are the strings walked.
  if (!beyond.test(json) && !ESCAPED_SURROGATE.test(json)) return;
  const path = pathOf(data, beyond);
  if (path === undefined) return;
  throw invalidInput(
    operation,
    `${path} holds text the upstream cannot give back: it answers in ${charset.toUpperCase()}, which writes ? for every character it lacks. Send text within ${charset.toUpperCase()}.`,
    path,
  );
}

/** The path (`data.a.0`) of the first key or string value that `beyond` matches. */
function pathOf(value: unknown, beyond: RegExp, path = 'data'): string | undefined {
  if (typeof value === 'string') return beyond.test(value) ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const at = `${path}.${key}`;
    if (beyond.test(key)) return at;
    const found = pathOf(item, beyond, at);
    if (found !== undefined) return found;
  }
  return undefined;
}
