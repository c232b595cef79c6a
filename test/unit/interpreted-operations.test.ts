/**
 * Which operations compiled execution leaves to graphql-js, from the document alone
 * (`src/execution/interpreted-operations.ts`); the differential test holds the answers of the rest to graphql-js's.
 */
import { createRequire } from 'node:module';
import type * as graphql from 'graphql';
import { Kind, parse, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/app/build-schema.ts';
import { interpretedReason } from '../../src/execution/interpreted-operations.ts';
import { DEMO_OBJECTS_DIR } from '../support/object-fixtures.ts';

const schema = buildSchema({ objectsDir: DEMO_OBJECTS_DIR });

/** Our demo queries take no custom scalar: a schema whose query does. Built by the CommonJS copy, as ours. */
const longSchema = (createRequire(import.meta.url)('graphql') as typeof graphql).buildSchema(
  'scalar Long type Query { entry(amount: Long, n: Int): Int }',
);

function reasonOf(text: string, on: GraphQLSchema = schema): string | undefined {
  const document = parse(text);
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (operation === undefined) throw new Error('no operation');
  return interpretedReason(on, document, operation);
}

describe('interpretedReason', () => {
  it.each([
    ['a plain query', '{ me { username } }'],
    [
      'a key selected twice without conditions',
      '{ me { username username ...S } } fragment S on Session { username }',
    ],
    ['a condition on a key selected once', '{ me { username @include(if: false) organizationCode } }'],
    [
      'a custom scalar in a variable',
      'query ($d: JSONObject!) { me { username } objects(objectName: "x") { totalCount } }',
    ],
  ])('should compile %s', (_name, text) => {
    expect(reasonOf(text)).toBeUndefined();
  });

  it.each([
    ['mutation', 'mutation { logout }'],
    ['subscription', 'subscription { me { username } }'],
    ['defer-or-stream', '{ me { ... @defer { username } } }'],
    ['conditional-duplicate', '{ me { username @skip(if: true) organizationCode username } }'],
    [
      'conditional-duplicate',
      '{ me { ...S @include(if: false) username } } fragment S on Session { username }',
    ],
    ['conditional-duplicate', '{ me { a: username } me @include(if: false) { b: organizationCode } }'],
    ['conditional-duplicate', '{ r: me { x: username } r: me { y: username @skip(if: true) y: username } }'],
  ])('should leave to graphql-js: %s (%s)', (reason, text) => {
    expect(reasonOf(text)).toBe(reason);
  });

  it('should leave to graphql-js a custom scalar written in the document, not one in a variable', () => {
    expect(reasonOf('{ entry(amount: "9007199254740993") }', longSchema)).toBe('custom-scalar-literal');
    expect(reasonOf('query ($a: Long = "1") { entry(amount: $a) }', longSchema)).toBe(
      'custom-scalar-literal',
    );
    expect(reasonOf('query ($a: Long) { entry(amount: $a, n: 1) }', longSchema)).toBeUndefined();
  });
});
