/**
 * Text against a literal operator's operands, letters in any case by the rule of `case-variants.ts` (same
 * lower or same upper case, one code point against one), for the run-time check of answered records
 * (`condition-meaning.ts`). Built once per condition; ASCII text against ASCII operands takes a path that
 * allocates nothing per record.
 */
import { sameIgnoringCase } from './case-variants.ts';

/** The operators compiled from literals. */
export type LiteralOperator = 'equals' | 'in' | 'contains' | 'startsWith' | 'endsWith';

/** Printable US-ASCII and the common white space: letters there have one other case each, or none. */
const ASCII = /^[ -~\t\n\r]*$/;

/** The code points of `text`, each as a string. */
const codePoints = (text: string): string[] => Array.from(text);

/** Whether `value` (code points) occurs in `text` (code points) at `at`, letters in any case. */
function occursAt(text: readonly string[], value: readonly string[], at: number): boolean {
  if (at < 0 || at + value.length > text.length) return false;
  for (let i = 0; i < value.length; i++) {
    if (!sameIgnoringCase(value[i] ?? '', text[at + i] ?? '')) return false;
  }
  return true;
}

/** The test, code point by code point. */
function byCodePoints(operator: LiteralOperator, literals: readonly string[]): (text: string) => boolean {
  const values = literals.map(codePoints);
  const [value = []] = values;
  switch (operator) {
    case 'equals':
    case 'in':
      return (text) => {
        const chars = codePoints(text);
        return values.some((v) => v.length === chars.length && occursAt(chars, v, 0));
      };
    case 'contains':
      return (text) => {
        const chars = codePoints(text);
        for (let at = 0; at + value.length <= chars.length; at++) if (occursAt(chars, value, at)) return true;
        return false;
      };
    case 'startsWith':
      return (text) => occursAt(codePoints(text), value, 0);
    case 'endsWith':
      return (text) => {
        const chars = codePoints(text);
        return occursAt(chars, value, chars.length - value.length);
      };
  }
}

/**
 * The exact test of text against operands as given: case-sensitive literals as they are, and ASCII text
 * lower-cased against lower-cased ASCII operands.
 */
export function exactTextTest(
  operator: LiteralOperator,
  operands: readonly string[],
): (text: string) => boolean {
  const [first = ''] = operands;
  switch (operator) {
    case 'equals':
      return (text) => text === first;
    case 'in': {
      const set = new Set(operands);
      return (text) => set.has(text);
    }
    case 'contains':
      return (text) => text.includes(first);
    case 'startsWith':
      return (text) => text.startsWith(first);
    case 'endsWith':
      return (text) => text.endsWith(first);
  }
}

/** Whether a text satisfies `operator` over `literals`, letters in any case. */
export function caseInsensitiveTest(
  operator: LiteralOperator,
  literals: readonly string[],
): (text: string) => boolean {
  const slow = byCodePoints(operator, literals);
  // ASCII text against ASCII operands: the rule is plain lower-casing there (no Kelvin sign, no long s, no
  // letter whose lower case is two characters).
  if (!literals.every((literal) => ASCII.test(literal))) return slow;
  const fast = exactTextTest(
    operator,
    literals.map((literal) => literal.toLowerCase()),
  );
  return (text) => (ASCII.test(text) ? fast(text.toLowerCase()) : slow(text));
}
