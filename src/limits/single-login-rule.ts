/**
 * A validation rule: `login` must be the only root field of its operation (`__typename` aside), and not aliased. Otherwise one
 * HTTP request could carry fifteen password guesses (`a: login(…) b: login(…) …`), each a separate upstream
 * login, and per-request rate limits would count them as one.
 */
import { Kind, OperationTypeNode } from 'graphql';
import type { ASTVisitor, FieldNode, SelectionSetNode, ValidationContext } from 'graphql';
import { ErrorCode } from '../errors/error-codes.ts';
import { limitError } from '../errors/graphql-errors.ts';

/** Field name the rule guards, unless the schema names another (`FEDERATION_NAME_PREFIX` renames it). */
const LOGIN = 'login';
/** The schema extension that names the login field once renamed (`src/federation/build-subgraph.ts` sets it). */
export const LOGIN_FIELD_EXTENSION = 'gatewayLoginField';

/** The meta field any selection set may ask for. */
const TYPENAME = '__typename';

/** The fields a selection set selects at its own level, through inline fragments and fragment spreads. */
function rootFields(
  selectionSet: SelectionSetNode,
  context: ValidationContext,
  seen: Set<string>,
): FieldNode[] {
  const fields: FieldNode[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      fields.push(selection);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      fields.push(...rootFields(selection.selectionSet, context, seen));
    } else if (!seen.has(selection.name.value)) {
      // A cycle of fragments is reported by the standard rules; `seen` only keeps this walk finite.
      seen.add(selection.name.value);
      const fragment = context.getFragment(selection.name.value);
      if (fragment) fields.push(...rootFields(fragment.selectionSet, context, seen));
    }
  }
  return fields;
}

/** The rule, for Apollo Server's `validationRules`. */
export function singleLoginRule(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(operation) {
      if (operation.operation !== OperationTypeNode.MUTATION) return;
      // `__typename` costs nothing and GraphQL Code Generator's client preset adds it to every selection set
      // (`addTypenameSelectionDocumentTransform`): beside `login` it is no second login.
      const fields = rootFields(operation.selectionSet, context, new Set()).filter(
        (field) => field.name.value !== TYPENAME,
      );
      const renamed: unknown = context.getSchema().extensions[LOGIN_FIELD_EXTENSION];
      const login = typeof renamed === 'string' ? renamed : LOGIN;
      const logins = fields.filter((field) => field.name.value === login);
      if (logins.length === 0) return;
      if (fields.length > 1 || logins.some((field) => field.alias !== undefined)) {
        context.reportError(
          limitError(
            ErrorCode.LOGIN_NOT_ALONE,
            'The login mutation must be the only field of its operation, without an alias: send one login per request.',
          ),
        );
      }
    },
  };
}
