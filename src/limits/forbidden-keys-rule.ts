/**
 * A validation rule: an object literal of the document holding `__proto__`, or `constructor` holding
 * `prototype`, is refused with `BAD_REQUEST`, as the request body's JSON parser refuses the same keys in the
 * variables (Fastify's `secure-json-parse`, `src/http/exact-numbers-hook.ts`). Without it,
 * `saveObject(data: {__proto__: {x: 1}})` was stored: the `JSON` and `JSONObject` scalars build a literal's
 * object key by key, and the key reached the upstream's record and every client that reads it back.
 *
 * Every object literal counts, however deep, in lists, beside variables, in the generic `JSON` scalars and
 * the typed inputs alike: an input object type cannot declare such a field (`__` names are reserved), so
 * the keys can only be meant for a prototype. `constructor` or `prototype` alone are ordinary keys, as in
 * the variables.
 */
import { Kind } from 'graphql';
import type { ASTVisitor, ObjectFieldNode, ValidationContext } from 'graphql';
import { forbiddenKey } from '../errors/graphql-errors.ts';

/** Whether `field` is a key the variables' JSON parser refuses. */
function isForbidden(field: ObjectFieldNode): boolean {
  if (field.name.value === '__proto__') return true;
  return (
    field.name.value === 'constructor' &&
    field.value.kind === Kind.OBJECT &&
    field.value.fields.some((inner) => inner.name.value === 'prototype')
  );
}

/** The rule, for Apollo Server's `validationRules`. */
export function forbiddenKeysRule(context: ValidationContext): ASTVisitor {
  return {
    ObjectField(field) {
      if (isForbidden(field)) context.reportError(forbiddenKey(field));
    },
  };
}
