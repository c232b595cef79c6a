/**
 * The meaning of one filter condition, as a predicate on the value a record holds (`CriterionMeaning`):
 * what the caller asked, independent of the pattern it was compiled to and of how the upstream reads that
 * pattern. Text compares as text (`caseInsensitive` by the rule of `case-variants.ts`), numbers by value
 * (`1250` = `1250.0` = `1.25E3`, digit for digit past 2^53), instants as instants. Everything that can be
 * precomputed (sets, keys, code points) is, once per condition, so a record costs a few comparisons.
 *
 * What the upstream's `matches` compares is the value's text; a value whose text the gateway no longer has
 * (a JSON number read as a double: `2.50` became `2.5`), or never had (an object, an array), is judged by
 * what can be told: a number by its value, and accepted otherwise unless the operand holds a character no
 * spelling of a number has. Caller-written `matches` patterns are judged by `caller-pattern-meaning.ts`.
 */
import type { CriterionMeaning } from '../upstream/dialect/answers/criterion-meaning.ts';
import type { MatchesMode } from '../upstream/client/types.ts';
import { isExactNumber } from '../upstream/dialect/exact-json.ts';
import { decimalKey } from './decimal-key.ts';
import { caseInsensitiveTest, exactTextTest, type LiteralOperator } from './case-insensitive-test.ts';

/** The parts of a filter condition (`FilterCondition`) its meaning depends on. */
export interface ConditionOperands {
  value?: string | null | undefined;
  values?: readonly string[] | null | undefined;
  caseInsensitive?: boolean | null | undefined;
  operandType?: 'number' | 'dateTime' | undefined;
}

/** A record's value as the check sees it: its text when known, its number when that is all there is. */
type Held = { text: string } | { number: number } | { instant: unknown } | 'unknown' | 'missing';

/** Characters some spelling of a number may hold: an operand with any other cannot be in a number's text. */
const NUMBER_CHARACTERS = /^[0-9.eE+-]*$/;

/** The value at a field as text, a number, or what cannot be told (MongoDB's `$oid`, `$date` understood). */
function heldOf(value: unknown): Held {
  if (value === undefined) return 'missing';
  if (typeof value === 'string') return { text: value };
  if (typeof value === 'number') return { number: value };
  if (typeof value === 'boolean') return { text: String(value) };
  if (value === null) return { text: 'null' };
  if (isExactNumber(value)) return { text: value.rawJSON };
  if (typeof value === 'object' && !Array.isArray(value)) {
    const extended = value as Record<string, unknown>;
    if (typeof extended.$oid === 'string') return { text: extended.$oid };
    if (Object.hasOwn(extended, '$date')) return { instant: extended.$date };
  }
  return 'unknown';
}

/** The text test of a literal operator: exact, or letters in any case. */
function textTest(
  operator: LiteralOperator,
  literals: readonly string[],
  caseInsensitive: boolean,
): (text: string) => boolean {
  return caseInsensitive ? caseInsensitiveTest(operator, literals) : exactTextTest(operator, literals);
}

/** The instant (milliseconds) of a stored date: ISO text, MongoDB's `{$date: …}` forms, or `NaN`. */
function instantOf(value: unknown): number {
  if (typeof value === 'string') return Date.parse(value);
  if (typeof value === 'number') return value;
  if (typeof value === 'object' && value !== null) {
    const long = (value as Record<string, unknown>).$numberLong;
    if (typeof long === 'string') return Number(long);
  }
  return Number.NaN;
}

/** Whether `held` satisfies a literal operator whose operands are numbers (`operandType: 'number'`). */
function numberMeaning(operator: LiteralOperator, literals: readonly string[]): (held: Held) => boolean {
  const keys = new Set(literals.map((literal) => decimalKey(literal)));
  // The operands a double holds exactly (its shortest spelling has their key): a double read from JSON
  // equals one of them or none, so it is compared as a number, without spelling it (the common case).
  const doubles = new Set(
    literals.map(Number).filter((n) => Number.isFinite(n) && keys.has(decimalKey(String(n)))),
  );
  const lenient = textMeaning(operator, literals, false);
  if (operator !== 'equals' && operator !== 'in') return lenient;
  return (held) => {
    if (held === 'missing') return false;
    if (held === 'unknown' || 'instant' in held) return true;
    if ('number' in held) return doubles.has(held.number);
    const key = decimalKey(held.text);
    return key !== undefined && keys.has(key);
  };
}

/** Whether `held` satisfies a literal operator whose operands are instants (`operandType: 'dateTime'`). */
function dateTimeMeaning(operator: LiteralOperator, literals: readonly string[]): (held: Held) => boolean {
  const instants = new Set(literals.map((literal) => Date.parse(literal)));
  const lenient = textMeaning(operator, literals, false);
  if (operator !== 'equals' && operator !== 'in') return lenient;
  return (held) => {
    if (held === 'missing') return false;
    if (held === 'unknown' || 'number' in held) return true;
    return instants.has(instantOf('instant' in held ? held.instant : held.text));
  };
}

/** Whether `held` satisfies a literal operator on text, a number's lost text judged as far as it can be. */
function textMeaning(
  operator: LiteralOperator,
  literals: readonly string[],
  caseInsensitive: boolean,
): (held: Held) => boolean {
  const test = textTest(operator, literals, caseInsensitive);
  const keys = new Set(literals.map((literal) => decimalKey(literal)));
  const numeric = literals.every((literal) => NUMBER_CHARACTERS.test(literal));
  return (held) => {
    if (held === 'missing') return false;
    if (held === 'unknown' || 'instant' in held) return true;
    if ('text' in held) return test(held.text);
    // A double's text is gone (`2.50` read as 2.5): its value must be the operand's, or some spelling of it may hold it.
    if (test(String(held.number))) return true;
    if (operator === 'equals' || operator === 'in') return keys.has(decimalKey(String(held.number)));
    return numeric;
  };
}

/** The meaning of a condition compiled from literals (every operator but `matches`). */
export function literalConditionMeaning(
  condition: ConditionOperands,
  operator: LiteralOperator,
): CriterionMeaning {
  const literals = operator === 'in' ? [...new Set(condition.values ?? [])] : [condition.value ?? ''];
  const caseInsensitive = condition.caseInsensitive === true;
  const judge =
    condition.operandType === 'number'
      ? numberMeaning(operator, literals)
      : condition.operandType === 'dateTime'
        ? dateTimeMeaning(operator, literals)
        : textMeaning(operator, literals, caseInsensitive);
  return { operator, literals, caseInsensitive, test: (value) => judge(heldOf(value)) };
}

/**
 * The meaning of a caller's `matches` under `exact` (plain equality: the value is text, not a pattern), or,
 * given `matchesText` (the pattern as a whole-value test), under `regex` and `find`. Without one, the
 * pattern is not judged (`caller-pattern-meaning.ts` says which patterns are).
 */
export function matchesConditionMeaning(
  condition: ConditionOperands,
  matchesMode: MatchesMode,
  matchesText: ((text: string) => boolean) | undefined,
): CriterionMeaning | undefined {
  const value = condition.value ?? '';
  const base = { operator: 'matches', literals: [value], caseInsensitive: false };
  if (matchesMode === 'exact') {
    const judge = textMeaning('equals', [value], false);
    return { ...base, test: (held) => judge(heldOf(held)) };
  }
  if (matchesText === undefined) return undefined;
  return {
    ...base,
    literals: [],
    test: (held) => {
      const seen = heldOf(held);
      if (seen === 'missing') return false;
      if (seen === 'unknown' || 'instant' in seen) return true;
      // A double's text is gone: judged by its JavaScript spelling, accepted when that does not match.
      return 'text' in seen ? matchesText(seen.text) : true;
    },
  };
}
