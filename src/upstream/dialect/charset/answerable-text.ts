/**
 * Text the upstream could store but never give back. An upstream that answers in ISO-8859-1 (or windows-1252)
 * writes `?` for every character its charset lacks (Java's encoder does), and the gateway cannot tell that `?`
 * from a real one: a save of Greek text would succeed and read back as `????????`, silently. So once the
 * upstream has answered in such a charset, a write holding a character it lacks is refused before it is sent,
 * naming the field: the caller's text cannot make the round trip. But only once the upstream has been heard
 * writing text beyond ASCII as its charset's own bytes (an accented letter in an answer): an upstream that writes
 * every such character as a JSON `\u` escape (Jackson's `ESCAPE_NON_ASCII`; the check finds it gives back Greek
 * and emoji) gives back any text, and one heard doing so is never refused. Until one or the other is heard,
 * nothing is refused; either way every write's read-back is compared with what was sent, so a `?` read back is
 * named (`stored_as_sent`), never answered as current.
 */
import { invalidInput } from '../../../errors/upstream-error.ts';
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
  form: AnswerTextForm = 'bytes',
): void {
  if (charset === 'utf-8' || form !== 'bytes') return;
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

/**
 * A JSON `\u` escape of a character past U+00FF (an odd run of backslashes before the `u`: `\\u0100` is a
 * backslash and text).
 */
const ESCAPED_BEYOND_LATIN1 = /(?<!\\)(?:\\\\)*\\u(?:0[1-9a-fA-F]|[1-9a-fA-F][0-9a-fA-F])[0-9a-fA-F]{2}/;

/** How a single-byte-charset upstream writes text beyond ASCII in its answers, as heard so far. */
export type AnswerTextForm = 'unknown' | 'bytes' | 'escapes';

const BEYOND_ASCII = /[^\0-\x7f]/;

/**
 * What an answer's decoded text says of the upstream's {@link AnswerTextForm}, given what was heard before: a
 * `\u` escape of a character past Latin-1 proves escapes (for good: such an upstream gives back any text);
 * a character beyond ASCII as it is proves bytes.
 */
export function answerTextForm(text: string, before: AnswerTextForm): AnswerTextForm {
  if (before === 'escapes') return before;
  if (text.includes('\\u') && ESCAPED_BEYOND_LATIN1.test(text)) return 'escapes';
  return before === 'unknown' && BEYOND_ASCII.test(text) ? 'bytes' : before;
}
