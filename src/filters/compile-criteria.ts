/**
 * Compiles the gateway's filter operators into the upstream's only documented one, `matches` (Java's
 * `String.matches`: a full-string regular expression, evaluated by a backtracking engine with no time
 * limit). Shared by the generic `filter` and the typed `where`; no GraphQL here.
 *
 * Every operator but `matches` is compiled by the gateway from escaped literals, so a caller never writes
 * a regular expression to say "equals" or "contains", and what is sent has no nested or ambiguous
 * repetition: at worst as slow as a plain substring search (text length × value length). Caller-written
 * `matches` patterns go through the pattern guard first. The README's "Operators" table says the same.
 */
import type { PatternGuard } from '../upstream/pattern-guard/pattern-guard.ts';
import type { Criterion, MatchesMode } from '../upstream/client/types.ts';
import { MAX_CRITERION_LENGTH } from '../upstream/batching/loaders.ts';
import { FilterError } from '../errors/filter-error.ts';
import { ANY_TEXT, literalPattern, NOTHING } from './literal-pattern.ts';
import { dateTimePattern } from './date-time-pattern.ts';
import { numberTextPattern } from './number-pattern.ts';
import { literalConditionMeaning, matchesConditionMeaning } from './condition-meaning.ts';
import { callerPatternTest } from './caller-pattern-meaning.ts';
import type { CriterionMeaning } from '../upstream/dialect/answers/criterion-meaning.ts';

/** The operators a filter condition may use (the GraphQL enum `FilterOperator` spells them alike). */
export const FILTER_OPERATORS = ['matches', 'equals', 'in', 'contains', 'startsWith', 'endsWith'] as const;

/** One of {@link FILTER_OPERATORS}. */
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** Most `matches` conditions in one filter: each new pattern costs the shared pattern guard an analysis. */
const MAX_MATCHES_PER_FILTER = 5;

/** Most values one `in` may list. */
export const MAX_IN_VALUES = 100;

/**
 * Longest pattern the gateway compiles, in UTF-16 units: the same bound as a batched id lookup's
 * alternation, since the pattern travels in the upstream URL.
 */
export const MAX_COMPILED_PATTERN_LENGTH = MAX_CRITERION_LENGTH;

/** One condition as the caller wrote it, before compilation. */
export interface FilterCondition {
  /** The record field (dotted path, `_id`) the condition tests; passed on unchanged. */
  fieldName: string;
  operator: FilterOperator;
  /** The operand of every operator but `in`. */
  value?: string | null | undefined;
  /** The operands of `in`. */
  values?: readonly string[] | null | undefined;
  /** Letters match in any case (literal operators only). */
  caseInsensitive?: boolean | null | undefined;
  /**
   * What the operands are, when not text: `number` (written as `String(n)`, a typed `Int` or `Float`
   * filter, or a `Long`'s exact digits), each matching every spelling of that number upstream (`2.5`, `2.50`, `2.5E0`) and no other
   * (`number-pattern.ts`); `dateTime` (written by `toISOString()`), each matching the UTC spellings of that
   * instant (`date-time-pattern.ts`).
   */
  operandType?: 'number' | 'dateTime' | undefined;
  /** Where `value`, `values` and `caseInsensitive` sit in the caller's input, for messages. */
  at: { value: string; values: string; caseInsensitive: string };
}

/** What {@link compileCriteria} needs besides the conditions. */
export interface CompileCriteriaOptions {
  /**
   * `exact`: the upstream compares with plain equality, so only `equals` and `matches` mean anything.
   * `find` compiles as `regex` does: the upstream client anchors every pattern it sends in that mode.
   */
  matchesMode: MatchesMode;
  /** Checks caller-written `matches` patterns. */
  guard: PatternGuard;
  /** The field argument the conditions came in (`filter`, `where`), for {@link FilterError}. */
  argumentName: string;
}

const quote = (path: string): string => `"${path}"`;

/** The anchored-by-`matches` pattern of a literal operator (regex mode). */
function literalOperatorPattern(
  condition: FilterCondition,
  operator: Exclude<FilterOperator, 'matches'>,
  argumentName: string,
): string {
  const caseInsensitive = condition.caseInsensitive === true;
  const literals = operator === 'in' ? [...new Set(condition.values ?? [])] : [condition.value ?? ''];
  const where = operator === 'in' ? condition.at.values : condition.at.value;
  const tooLong = (length: number) =>
    new FilterError(
      `The pattern compiled from ${quote(where)} would be ${length} characters, more than ` +
        `${MAX_COMPILED_PATTERN_LENGTH}: use fewer or shorter values` +
        `${caseInsensitive ? ' (caseInsensitive writes every letter as a class of its cases)' : ''}.`,
      argumentName,
    );
  // Every literal compiles to at least its own length: refuse an oversized input before compiling it.
  const inputLength = literals.reduce((sum, literal) => sum + literal.length, 0);
  if (inputLength > MAX_COMPILED_PATTERN_LENGTH) throw tooLong(inputLength);
  const pattern = compileLiterals(operator, literals, caseInsensitive, condition.operandType);
  if (pattern.length > MAX_COMPILED_PATTERN_LENGTH) throw tooLong(pattern.length);
  return pattern;
}

function compileLiterals(
  operator: Exclude<FilterOperator, 'matches'>,
  literals: readonly string[],
  caseInsensitive: boolean,
  operandType: FilterCondition['operandType'],
): string {
  const [first = ''] = literals;
  const literal = (text: string) => {
    if (operandType === 'number') return numberTextPattern(text);
    if (operandType === 'dateTime') return dateTimePattern(text);
    return literalPattern(text, caseInsensitive);
  };
  switch (operator) {
    case 'equals':
      return literal(first);
    case 'in':
      // Grouped: an upstream that wraps the value (`"^" + value + "$"`) would otherwise anchor only the first
      // and the last alternative (`^open|delivered$` finds `undelivered`); under `String.matches` the group
      // changes nothing.
      if (literals.length === 0) return NOTHING;
      return literals.length === 1 ? literal(first) : `(?:${literals.map(literal).join('|')})`;
    case 'contains':
      return first === '' ? ANY_TEXT : `${ANY_TEXT}${literal(first)}${ANY_TEXT}`;
    case 'startsWith':
      return first === '' ? ANY_TEXT : `${literal(first)}${ANY_TEXT}`;
    case 'endsWith':
      return first === '' ? ANY_TEXT : `${ANY_TEXT}${literal(first)}`;
  }
}

/** Refuses a condition whose operands do not fit its operator. */
/** Longest field path accepted. */
const MAX_FIELD_NAME_LENGTH = 256;

/**
 * A field path the upstream can walk: dot-separated non-empty names without control characters. An empty
 * segment (`customer..id`) or a stray dot is a caller's typo that a Java service might answer with an
 * exception (a 500 that would read as ill health), so it is refused here.
 */
function isFieldPath(fieldName: string): boolean {
  return (
    fieldName.length <= MAX_FIELD_NAME_LENGTH &&
    !/\p{Cc}/u.test(fieldName) &&
    fieldName.split('.').every((segment) => segment.trim() !== '')
  );
}

function checkShape(condition: FilterCondition, argumentName: string): void {
  const { operator, at } = condition;
  const has = (v: unknown) => v !== null && v !== undefined;
  const refuse = (message: string) => new FilterError(message, argumentName);
  if (!isFieldPath(condition.fieldName)) {
    throw refuse(
      `${quote(at.value.replace(/\.value$/, '.fieldName'))} must be a field name or a dotted path of field names ` +
        `(customer.id), at most ${MAX_FIELD_NAME_LENGTH} characters.`,
    );
  }
  if (operator === 'in') {
    if (!has(condition.values)) throw refuse(`${quote(at.values)} is required by the in operator.`);
    if (has(condition.value))
      throw refuse(`${quote(at.value)} does not apply to in: list the values in ${quote(at.values)}.`);
    if (condition.values.length > MAX_IN_VALUES)
      throw refuse(`${quote(at.values)} lists more than ${MAX_IN_VALUES} values.`);
  } else {
    if (!has(condition.value)) throw refuse(`${quote(at.value)} is required by the ${operator} operator.`);
    if (has(condition.values))
      throw refuse(`${quote(at.values)} applies to the in operator only, not to ${operator}.`);
  }
  if (operator === 'matches' && condition.caseInsensitive === true) {
    throw refuse(
      `${quote(at.caseInsensitive)} does not apply to matches: write the cases into the pattern ([Hh]ome) ` +
        'or use equals, in, contains, startsWith or endsWith.',
    );
  }
}

async function compileOne(condition: FilterCondition, options: CompileCriteriaOptions): Promise<Criterion> {
  const { argumentName, matchesMode } = options;
  checkShape(condition, argumentName);
  const { operator, fieldName, at } = condition;
  const criterion = (value: string, meaning: CriterionMeaning | undefined): Criterion => {
    const compiled: Criterion = { fieldName, operator: 'matches', value };
    // Not enumerable: what is sent, compared and keyed is the wire criterion; the meaning rides along.
    if (meaning !== undefined)
      Object.defineProperty(compiled, 'meaning', { value: meaning, enumerable: false });
    return compiled;
  };
  const value = condition.value ?? '';
  if (operator === 'matches') {
    // In exact mode the upstream compares by equality: the value is no regular expression there.
    if (matchesMode !== 'exact') {
      const verdict = await options.guard.check(value);
      if (!verdict.ok && verdict.busy === true) {
        throw new FilterError(
          `The regular expression in ${quote(at.value)} was not checked: ${verdict.reason}.`,
          argumentName,
          true,
        );
      }
      if (!verdict.ok) {
        throw new FilterError(
          // The guard's reason says what to write instead.
          `The regular expression in ${quote(at.value)} is refused: ${verdict.reason}.`,
          argumentName,
        );
      }
    }
    const test = matchesMode === 'exact' ? undefined : callerPatternTest(value);
    const meaning = matchesConditionMeaning(condition, matchesMode, test);
    // A top-level alternation is grouped, as `in`'s is, so that a wrapping upstream anchors all of it.
    return criterion(matchesMode !== 'exact' && value.includes('|') ? `(?:${value})` : value, meaning);
  }
  if (matchesMode === 'exact') {
    if (operator === 'equals' && condition.caseInsensitive !== true)
      return criterion(value, literalConditionMeaning(condition, operator));
    const [what, path] =
      operator === 'equals'
        ? ['caseInsensitive', at.caseInsensitive]
        : [`the ${operator} operator`, operator === 'in' ? at.values : at.value];
    throw new FilterError(
      'The upstream compares values by plain equality (UPSTREAM_MATCHES=exact), so only equals (case ' +
        `sensitive) and matches can be honoured, not ${what} (${quote(path)}).`,
      argumentName,
    );
  }
  return criterion(
    literalOperatorPattern(condition, operator, argumentName),
    literalConditionMeaning(condition, operator),
  );
}

/**
 * The upstream criteria (all `matches`, combined with AND upstream) of `conditions`, in their order.
 * Throws the {@link FilterError} of the first refused condition, in input order.
 */
export async function compileCriteria(
  conditions: readonly FilterCondition[],
  options: CompileCriteriaOptions,
): Promise<Criterion[]> {
  // Every new pattern costs the shared guard an analysis: one request may not queue many of them.
  const patterns = conditions.filter((c) => c.operator === 'matches').length;
  if (options.matchesMode !== 'exact' && patterns > MAX_MATCHES_PER_FILTER) {
    throw new FilterError(
      `At most ${MAX_MATCHES_PER_FILTER} conditions of one filter may use matches (${patterns} do); use ` +
        'equals, in, contains, startsWith or endsWith for the others.',
      options.argumentName,
    );
  }
  // Guard checks run side by side; the error reported is the first in input order, not the first to settle.
  const settled = await Promise.allSettled(conditions.map((c) => compileOne(c, options)));
  const criteria: Criterion[] = [];
  for (const result of settled) {
    if (result.status === 'fulfilled') criteria.push(result.value);
    else throw result.reason instanceof Error ? result.reason : new Error(String(result.reason));
  }
  return criteria;
}
