/**
 * Relay artifacts for the Relay client test, written by hand as the Relay compiler (v20/v21) emits them for:
 *
 * ```graphql
 * fragment CustomerCard_customer on Customer @refetchable(queryName: "CustomerCardRefetchQuery") {
 *   name
 *   id
 * }
 * query CustomerListQuery {
 *   customers(first: 2) { nodes { id ...CustomerCard_customer } }
 * }
 * ```
 *
 * The compiler (`relay-compiler`) is a native binary downloaded per platform, which an offline or locked-down
 * machine may not install; the runtime (`relay-runtime`) is plain JavaScript. `@refetchable` makes the
 * compiler generate `CustomerCardRefetchQuery`: `node(id: $id) { __typename ...CustomerCard_customer id }`,
 * the query Relay's `useRefetchableFragment` and pagination containers send, and the one that needs the
 * gateway's `Node` interface.
 */
import { relayRequest } from '../support/relay-request.ts';
import type { ConcreteRequest, ReaderFragment } from 'relay-runtime';

const idField = { alias: null, args: null, kind: 'ScalarField', name: 'id', storageKey: null } as const;
const nameField = { alias: null, args: null, kind: 'ScalarField', name: 'name', storageKey: null } as const;
const typenameField = {
  alias: null,
  args: null,
  kind: 'ScalarField',
  name: '__typename',
  storageKey: null,
} as const;
const idArgument = [{ defaultValue: null, kind: 'LocalArgument', name: 'id' }] as const;
const nodeArgs = [{ kind: 'Variable', name: 'id', variableName: 'id' }] as const;

/** `node(id: $id) { ...selections }`, as the reader and the normalization AST both write it. */
const nodeField = <S extends readonly unknown[]>(selections: S) =>
  ({
    alias: null,
    args: [...nodeArgs],
    concreteType: null,
    kind: 'LinkedField',
    name: 'node',
    plural: false,
    selections: [...selections],
    storageKey: null,
  }) as const;

/** `CustomerCardRefetchQuery`, the `@refetchable` fragment's query. */
export const CustomerCardRefetchQuery: ConcreteRequest = relayRequest({
  name: 'CustomerCardRefetchQuery',
  operationKind: 'query',
  argumentDefinitions: idArgument,
  readerSelections: [
    nodeField([{ args: null, kind: 'FragmentSpread', name: 'CustomerCard_customer' }] as const),
  ],
  normalizationSelections: [
    nodeField([
      typenameField,
      { kind: 'InlineFragment', selections: [nameField], type: 'Customer', abstractKey: null },
      idField,
    ] as const),
  ],
  text: 'query CustomerCardRefetchQuery(\n  $id: ID!\n) {\n  node(id: $id) {\n    __typename\n    ...CustomerCard_customer\n    id\n  }\n}\n\nfragment CustomerCard_customer on Customer {\n  name\n  id\n}\n',
});

/** `CustomerCard_customer`, with the refetch metadata `@refetchable` adds. */
export const CustomerCardFragment: ReaderFragment = {
  argumentDefinitions: [],
  kind: 'Fragment',
  metadata: {
    refetch: {
      connection: null,
      fragmentPathInResult: ['node'],
      operation: CustomerCardRefetchQuery,
      identifierInfo: { identifierField: 'id', identifierQueryVariableName: 'id' },
    },
  },
  name: 'CustomerCard_customer',
  selections: [nameField, idField],
  type: 'Customer',
  abstractKey: null,
};

const customersArgs = [{ kind: 'Literal', name: 'first', value: 2 }] as const;

/** `customers(first: 2) { nodes { ...nodeSelections } }`, as the reader and the normalization AST both write it. */
const customersField = <S extends readonly unknown[]>(nodeSelections: S) =>
  ({
    alias: null,
    args: [...customersArgs],
    concreteType: 'CustomerConnection',
    kind: 'LinkedField',
    name: 'customers',
    plural: false,
    selections: [
      {
        alias: null,
        args: null,
        concreteType: 'Customer',
        kind: 'LinkedField',
        name: 'nodes',
        plural: true,
        selections: [...nodeSelections],
        storageKey: null,
      },
    ],
    storageKey: 'customers(first:2)',
  }) as const;

/** `CustomerListQuery`: a page of customers, each spreading the card fragment. */
export const CustomerListQuery: ConcreteRequest = relayRequest({
  name: 'CustomerListQuery',
  operationKind: 'query',
  argumentDefinitions: [],
  readerSelections: [
    customersField([idField, { args: null, kind: 'FragmentSpread', name: 'CustomerCard_customer' }] as const),
  ],
  normalizationSelections: [customersField([idField, nameField] as const)],
  text: 'query CustomerListQuery {\n  customers(first: 2) {\n    nodes {\n      id\n      ...CustomerCard_customer\n    }\n  }\n}\n\nfragment CustomerCard_customer on Customer {\n  name\n  id\n}\n',
});
