/**
 * `@cacheControl(maxAge:, scope:)` on a typed object type, as Apollo users write it: read into the type's
 * cache policy (scope `PRIVATE` unless it says `PUBLIC`; no directive or `maxAge: 0`, no policy), and part of
 * the served schema.
 */
import { expect, it } from 'vitest';
import { buildSchema, readTypeDefs } from '../../src/app/build-schema.ts';
import { buildTypedApi } from '../../src/typed/build-typed-api.ts';
import { useObjectTypesFolders } from '../support/use-object-types-folders.ts';

const folderWith = useObjectTypesFolders('cache-control-');

const SDL = `
type LoanType @dataObject(name: "com.example.LoanType") @cacheControl(maxAge: 60, scope: PUBLIC) { id: ID! rate: Float }
type Customer @dataObject(name: "com.example.Customer") @cacheControl(maxAge: 5) { id: ID! name: String }
type Order @dataObject(name: "com.example.Order") @cacheControl(maxAge: 0, scope: PUBLIC) { id: ID! total: Float }
type Payment @dataObject(name: "com.example.Payment") { id: ID! amount: Float }
`;

it('should read each type’s policy, by its object name', () => {
  const { specs } = buildTypedApi({
    dir: folderWith({ 'types.graphql': SDL }),
    baseTypeDefs: readTypeDefs(),
  });
  expect(Object.fromEntries(specs.map((spec) => [spec.objectName, spec.cache]))).toEqual({
    'com.example.LoanType': { maxAgeSeconds: 60, scope: 'PUBLIC' },
    'com.example.Customer': { maxAgeSeconds: 5, scope: 'PRIVATE' },
    'com.example.Order': undefined,
    'com.example.Payment': undefined,
  });
});

it('should serve the directive and its scope enum in the schema', () => {
  const schema = buildSchema({ objectsDir: folderWith({ 'types.graphql': SDL }) });
  const directive = schema.getDirective('cacheControl');
  expect(directive?.locations).toEqual(['OBJECT']);
  expect(directive?.args.map((arg) => `${arg.name}: ${String(arg.type)}`)).toEqual([
    'maxAge: Int',
    'scope: CacheControlScope',
  ]);
  // Read by shape: the schema's graphql module may be another realm's than this file's (`instanceof` fails).
  const scope = schema.getType('CacheControlScope') as unknown as { getValues(): { name: string }[] };
  expect(scope.getValues().map((value) => value.name)).toEqual(['PUBLIC', 'PRIVATE']);
});
