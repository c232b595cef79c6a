/**
 * `INTROSPECTION=false` (production's default): `__schema` and `__type` are refused with
 * `INTROSPECTION_DISABLED`, naming the setting. The gateway's own rule rather than Apollo Server's
 * `introspection: false`, whose message tells the operator to "pass introspection: true to ApolloServer",
 * an option of code they do not write.
 */
import type { ASTVisitor, ValidationContext } from 'graphql';
import { introspectionDisabled } from '../errors/graphql-errors.ts';

/** A graphql-js validation rule: one error per introspection field (`__typename` is not one). */
export function noIntrospectionRule(context: ValidationContext): ASTVisitor {
  return {
    Field(node) {
      const name = node.name.value;
      if (name === '__schema' || name === '__type') context.reportError(introspectionDisabled(node));
    },
  };
}
