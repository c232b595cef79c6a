/**
 * A typed object SDL with a mistake stops the start: `buildSchema` (what `createGateway` calls) throws one
 * error naming the file, the line and the fix of every mistake.
 */
import { expect, it } from 'vitest';
import { buildSchema } from '../../src/app/build-schema.ts';
import { DEMO_OBJECTS_DIR } from '../support/object-fixtures.ts';
import { ObjectSchemaError } from '../../src/typed/spec/schema-problem.ts';
import { useObjectTypesFolders } from '../support/use-object-types-folders.ts';

const folderWith = useObjectTypesFolders('typed-sdl-');

/** Writes the files into a fresh folder and builds the schema from it; answers the error it throws. */
function startWith(files: Record<string, string>): ObjectSchemaError {
  try {
    buildSchema({ objectsDir: folderWith(files) });
  } catch (error) {
    if (error instanceof ObjectSchemaError) return error;
    throw error;
  }
  throw new Error('the schema built without an error');
}

const CUSTOMER = `type Customer @dataObject(name: "com.example.Customer") {
  id: ID!
  name: String
}
`;

it('should name the file, line and fix of an unknown directive argument', () => {
  const error = startWith({
    'order.graphql': `type Order @dataObject(name: "com.example.Order", plurl: "orderz") {
  id: ID!
  total: Float
}
`,
  });
  expect(error.problems).toHaveLength(1);
  expect(error.message.replace(error.problems[0]!.file, '<dir>/order.graphql')).toMatchInlineSnapshot(`
    "Invalid typed object schema (1 problem):
    <dir>/order.graphql:1:51 Order: @dataObject has no argument "plurl".
      Fix: write @dataObject(name: String!, single: String, plural: String); remove "plurl"."
  `);
  expect(error.problems[0]!.file).toMatch(/typed-sdl-.*[/\\]order\.graphql$/);
});

it('should name the file, line and fix of a @ref to an undeclared type', () => {
  const error = startWith({
    'customer.graphql': CUSTOMER,
    'order.graphql': `type Order @dataObject(name: "com.example.Order") {
  id: ID!
  total: Float
  buyer: Client @ref(field: "customer.id")
}
`,
  });
  expect(error.problems).toEqual([
    expect.objectContaining({
      file: expect.stringMatching(/order\.graphql$/),
      line: 4,
      problem: 'Order.buyer: @ref points at Client, which is not a @dataObject type.',
    }),
  ]);
  expect(error.message).toContain('order.graphql:4:10 Order.buyer: @ref points at Client');
  expect(error.message).toContain(
    'Fix: declare `type Client @dataObject(name: "…") { id: ID! … }` in a file of',
  );
  expect(error.message).toContain('or point the field at one of: Customer, Order.');
});

it('should name both files when two types declare one objectName', () => {
  const error = startWith({
    'a-order.graphql': `type Order @dataObject(name: "com.example.Order") {
  id: ID!
  total: Float
}
`,
    'b-purchase.graphql': `
type Purchase @dataObject(name: "com.example.Order") {
  id: ID!
  total: Float
}
`,
  });
  expect(error.problems).toHaveLength(1);
  const [problem] = error.problems;
  expect(problem).toMatchObject({ file: expect.stringMatching(/b-purchase\.graphql$/), line: 2, column: 33 });
  expect(problem!.problem).toMatch(
    /^type Purchase: com\.example\.Order is already the objectName of type Order \(.*a-order\.graphql:1\)\.$/,
  );
  expect(problem!.fix).toBe(
    'declare each objectName in one type only: remove type Purchase or merge its fields into type Order.',
  );
});

it("should name a free type name for a team's type that has a demo type's name", () => {
  const error = startWith({
    'corp-order.graphql': `type Order @dataObject(name: "com.corp.Order") {
  id: ID!
  reference: String
}
`,
    'order.graphql': `type Order @dataObject(name: "com.example.Order") {
  id: ID!
  total: Float
}
`,
  });
  expect(error.problems).toHaveLength(1);
  const [problem] = error.problems;
  expect(problem).toMatchObject({ file: expect.stringMatching(/[/\\]order\.graphql$/), line: 1 });
  expect(problem!.problem).toMatch(
    /^type Order is declared twice: for com\.corp\.Order \(.*corp-order\.graphql:1\) and for com\.example\.Order \(.*[/\\]order\.graphql:1\); one schema holds one type Order\.$/,
  );
  expect(problem!.fix).toBe(
    'rename one of them (`type ExampleOrder @dataObject(name: "com.example.Order")`, or `type CorpOrder @dataObject(name: "com.corp.Order")`; objects:infer takes `--type-name`), or delete the one no front-end reads.',
  );
});

it('should build with the fix applied: the team type renamed beside the demo type', () => {
  const dir = folderWith({
    'corp-order.graphql': 'type CorpOrder @dataObject(name: "com.corp.Order") { id: ID! reference: String }',
    'order.graphql': 'type Order @dataObject(name: "com.example.Order") { id: ID! total: Float }',
  });
  const fields = Object.keys(buildSchema({ objectsDir: dir }).getQueryType()!.getFields());
  expect(fields).toEqual(expect.arrayContaining(['corpOrder', 'corpOrders', 'order', 'orders']));
});

it('should name the file, line and fix of a type without an id field', () => {
  const error = startWith({
    'loan.graphql': '\n\ntype LoanType @dataObject(name: "com.example.LoanType") {\n  rate: Float\n}\n',
  });
  expect(error.problems).toEqual([
    expect.objectContaining({
      line: 3,
      column: 6,
      problem: 'type LoanType has no id field.',
      fix: "add `id: ID!` (it maps to the upstream's `_id`).",
    }),
  ]);
});

it.each([
  [
    'an unknown directive',
    'type LoanType @dataobject(name: "x") { id: ID! rate: Float }',
    'LoanType: unknown directive @dataobject.',
    'on a type, use @dataObject(name: String!, single: String, plural: String) or @cacheControl(maxAge: Int, scope: CacheControlScope).',
  ],
  [
    'a missing objectName',
    'type LoanType @dataObject { id: ID! rate: Float }',
    'LoanType: @dataObject needs its "name" argument.',
    'write @dataObject(name: String!, single: String, plural: String).',
  ],
  [
    'a type without @dataObject',
    'type LoanType { id: ID! rate: Float }',
    'type LoanType has no @dataObject.',
    expect.stringContaining('declare it as `type LoanType @dataObject(name: "com.example.LoanType") { … }`'),
  ],
  [
    'an id that is not ID!',
    'type LoanType @dataObject(name: "x") { id: String rate: Float }',
    'LoanType.id must be `id: ID!`.',
    "write `id: ID!`: it is always the upstream's `_id`.",
  ],
  [
    'an unknown field type',
    'type LoanType @dataObject(name: "x") { id: ID! rate: Decimal }',
    'LoanType.rate: unknown type Decimal.',
    'use ID, String, Int, Long, Float, Boolean, DateTime, JSON or JSONObject (or lists of them), or a @dataObject type with @ref.',
  ],
  [
    'a non-null @ref',
    `${CUSTOMER}type Order @dataObject(name: "o") { id: ID! customer: Customer! @ref(field: "customer.id") }`,
    'Order.customer: a @ref field holds one nullable reference.',
    expect.stringContaining('a reference to a missing object is null'),
  ],
  [
    'a typed field without @ref',
    `${CUSTOMER}type Order @dataObject(name: "o") { id: ID! customer: Customer }`,
    'Order.customer has the type Customer but no @ref.',
    expect.stringContaining('add @ref(field: "…")'),
  ],
  [
    '@ref in a string that is not a string',
    `${CUSTOMER}type Order @dataObject(name: "o") { id: ID! customer: Customer @ref(field: 12) }`,
    'Order.customer: @ref(field:) must be a non-empty string.',
    'write field: "…" with a quoted value.',
  ],
  [
    'a derived name the generic API already has',
    'type Object @dataObject(name: "com.example.Thing") { id: ID! name: String }',
    'type Object: the query field "object" is already part of the generic API.',
    'choose another name: @dataObject(name: "com.example.Thing", single: "…").',
  ],
  [
    'a type name the generic API already has',
    'type Session @dataObject(name: "com.example.Session") { id: ID! name: String }',
    'type Session: the type name "Session" is already part of the generic API.',
    'rename the type (its objectName can stay).',
  ],
  [
    'two fields on one record path',
    'type Customer @dataObject(name: "c") { id: ID! address: JSONObject city: String @field(path: "address.city") }',
    'Customer.city uses the record path "address.city", which overlaps Customer.address ("address").',
    expect.stringContaining('give each field its own record path'),
  ],
  [
    'a cache scope that is not one of the enum',
    'type LoanType @dataObject(name: "x") @cacheControl(maxAge: 60, scope: SHARED) { id: ID! rate: Float }',
    'LoanType: @cacheControl(scope:) must be one of PUBLIC, PRIVATE (unquoted).',
    'write scope: with one of PUBLIC, PRIVATE (unquoted).',
  ],
  [
    'a cache maxAge that is not a whole number',
    'type LoanType @dataObject(name: "x") @cacheControl(maxAge: "60") { id: ID! rate: Float }',
    'LoanType: @cacheControl(maxAge:) must be a whole number.',
    'write maxAge: with a whole number.',
  ],
  [
    'a cache maxAge out of range',
    'type LoanType @dataObject(name: "x") @cacheControl(maxAge: 100000) { id: ID! rate: Float }',
    'type LoanType: @cacheControl(maxAge: 100000) is out of range.',
    'give maxAge from 0 (not cached) to 86400 seconds.',
  ],
  [
    'a syntax error',
    'type LoanType @dataObject(name: "x") { id: ID! rate: }',
    'Syntax Error: Expected Name, found "}".',
    expect.stringContaining('correct the GraphQL syntax'),
  ],
  [
    'a definition that is not a type',
    'enum Status { NEW PAID }',
    'an enum type definition has no place here.',
    expect.stringContaining('hold only `type Name @dataObject(name: "…") { … }` definitions'),
  ],
  [
    'an input in the folder',
    'input OrderFilter { status: String }',
    'an input object type definition has no place here.',
    expect.stringContaining('hold only `type Name @dataObject(name: "…") { … }` definitions'),
  ],
])('should refuse %s with its fix', (_case, sdl, problem, fix) => {
  const error = startWith({ 'types.graphql': sdl });
  expect(error.problems).toContainEqual(expect.objectContaining({ problem, fix, line: expect.any(Number) }));
  expect(error.message).toMatch(/types\.graphql:\d+:\d+ /);
});

it('should report every mistake at once, in file order', () => {
  const error = startWith({
    'a.graphql': 'type A @dataObject(name: "a", singel: "x") { id: ID! n: Int }',
    'b.graphql': 'type B @dataObject(name: "b") { n: Int }',
  });
  expect(error.problems.map((p) => [p.file.slice(-9), p.problem])).toEqual([
    ['a.graphql', 'A: @dataObject has no argument "singel".'],
    ['b.graphql', 'type B has no id field.'],
  ]);
  expect(error.message).toMatch(/^Invalid typed object schema \(2 problems\):\n/);
});

it('should build the shipped folder, whatever types a team keeps in it', () => {
  expect(() => buildSchema()).not.toThrow();
});

it('should build the demo types', () => {
  const schema = buildSchema({ objectsDir: DEMO_OBJECTS_DIR });
  expect(Object.keys(schema.getQueryType()!.getFields())).toEqual(
    expect.arrayContaining(['customer', 'customers', 'loanType', 'loanTypes', 'order', 'orders']),
  );
  expect(Object.keys(schema.getMutationType()!.getFields())).toEqual(
    expect.arrayContaining(['saveLoanType', 'updateLoanType', 'saveOrder', 'updateOrder']),
  );
});
