/**
 * A validation rule: a number literal of the document that a double would change (`1e-400` stored as `0`,
 * `0.12345678901234567890123` rounded to 17 digits, `1e400` stored as `null`) is refused as
 * `BAD_USER_INPUT` with `reason: "inexact_number"`, before anything runs. The same numbers in the variables
 * are refused at the HTTP edge (`src/http/exact-numbers-hook.ts`); the rule is in `number-loss.ts`.
 *
 * `Int`, `ID` and `Long` positions are left alone: graphql-js refuses an `Int` beyond 32 bits itself, an `ID`
 * keeps an integer literal's digits as text, and the typed API's `Long` keeps them as they are written. So
 * are whole numbers a Java `long` holds inside `JSON` and `JSONObject` values, which keep their digits too
 * (`src/resolvers/exact-json-scalars.ts`).
 */
import type { ASTVisitor, ValidationContext } from 'graphql';
import type { FloatValueNode, IntValueNode } from 'graphql';
import { inexactNumber } from '../errors/graphql-errors.ts';
import { numberLoss, numberLossMessage } from '../upstream/dialect/number-loss.ts';
import { isLongLiteral } from '../upstream/dialect/exact-json.ts';

/** Scalars whose literals never become a double. */
const KEPT_EXACT: ReadonlySet<string> = new Set(['Int', 'ID', 'Long']);

/**
 * The name of the named type under `type`'s list and non-null wrappers, read by shape: graphql-js's own
 * `getNamedType` checks `instanceof`, which throws (outside production) when the schema's types come from
 * another copy of graphql-js than this module's (the test runner loads graphql-js both as ESM and as CJS),
 * and this rule needs only the name.
 */
function namedTypeName(type: unknown): string | undefined {
  let current: unknown = type;
  while (typeof current === 'object' && current !== null && 'ofType' in current) current = current.ofType;
  return typeof current === 'object' &&
    current !== null &&
    'name' in current &&
    typeof current.name === 'string'
    ? current.name
    : undefined;
}

/** The scalars whose literals are JSON values: `src/resolvers/exact-json-scalars.ts` keeps a long's digits. */
const JSON_SCALARS: ReadonlySet<string> = new Set(['JSON', 'JSONObject']);

/** The rule, for Apollo Server's `validationRules`. */
export function exactNumbersRule(context: ValidationContext): ASTVisitor {
  // One entry per object or list literal being visited: whether it is (or is inside) a JSON value, where
  // graphql-js no longer knows a type for the fields.
  const inJson: boolean[] = [];
  const container = {
    enter() {
      const name = namedTypeName(context.getInputType());
      inJson.push(inJson.at(-1) === true || (name !== undefined && JSON_SCALARS.has(name)));
    },
    leave() {
      inJson.pop();
    },
  };
  const check = (node: IntValueNode | FloatValueNode) => {
    const name = namedTypeName(context.getInputType());
    if (name !== undefined && KEPT_EXACT.has(name)) return;
    // A Java long in JSON data reaches the upstream with its digits, as in the variables.
    const json = inJson.at(-1) === true || (name !== undefined && JSON_SCALARS.has(name));
    if (json && isLongLiteral(node.value)) return;
    const loss = numberLoss(node.value);
    if (loss === undefined) return;
    context.reportError(inexactNumber(numberLossMessage('The document', node.value, loss), node));
  };
  return { IntValue: check, FloatValue: check, ObjectValue: container, ListValue: container };
}
