/**
 * One record through both APIs in Relay's own store (`RELAY_NODE=true`): the `DataObject` and the
 * `LoanType` of one upstream record are two records of the store (their global ids differ), so a write
 * through one API must answer what the other's record needs. Relay's defaults (`store-or-network` reads a
 * query from the store when it is all there): after a typed write that selects `dataObject { id data }`, the
 * generic screen shows the new rate from the store; after a generic write that selects
 * `typed { ... on LoanType { id rate } }`, the typed screen does, with no request sent for either read.
 * Artifacts are written by hand as the Relay compiler emits them (see `relay-artifacts.ts` for why).
 */
import {
  commitMutation,
  createOperationDescriptor,
  fetchQuery,
  type ConcreteRequest,
  type Environment,
} from 'relay-runtime';
import { expect, it } from 'vitest';
import { useHarness } from '../support/gateway-harness.ts';
import { relayEnvironment } from '../support/relay-environment.ts';

const h = useHarness({ env: { RELAY_NODE: 'true' } });

const scalar = (name: string) =>
  ({ alias: null, args: null, kind: 'ScalarField', name, storageKey: null }) as const;
const variable = (name: string) => ({ kind: 'Variable', name, variableName: name }) as const;
const linked = (
  name: string,
  concreteType: string | null,
  selections: readonly unknown[],
  args?: unknown[],
) =>
  ({
    alias: null,
    args: args ?? null,
    concreteType,
    kind: 'LinkedField',
    name,
    plural: false,
    selections,
    storageKey: null,
  }) as const;

/** A request whose reader and normalization ASTs are the same selections (no fragments), as the compiler emits it. */
function request(
  name: string,
  operationKind: 'query' | 'mutation',
  variables: readonly string[],
  selections: readonly unknown[],
  text: string,
): ConcreteRequest {
  const argumentDefinitions = variables.map((v) => ({ defaultValue: null, kind: 'LocalArgument', name: v }));
  return {
    fragment: {
      argumentDefinitions,
      kind: 'Fragment',
      metadata: null,
      name,
      selections,
      type: operationKind === 'query' ? 'Query' : 'Mutation',
      abstractKey: null,
    },
    kind: 'Request',
    operation: { argumentDefinitions, kind: 'Operation', name, selections },
    params: { cacheID: name, id: null, metadata: {}, name, operationKind, text },
  } as unknown as ConcreteRequest;
}

const objectArgs = [{ kind: 'Literal', name: 'objectName', value: 'com.example.LoanType' }, variable('id')];

/** `query GenericLoanQuery($id: ID!) { object(objectName: "com.example.LoanType", id: $id) { id data } }` */
const GenericLoanQuery = request(
  'GenericLoanQuery',
  'query',
  ['id'],
  [linked('object', 'DataObject', [scalar('id'), scalar('data')], objectArgs)],
  'query GenericLoanQuery($id: ID!) {\n  object(objectName: "com.example.LoanType", id: $id) {\n    id\n    data\n  }\n}\n',
);

/** `query TypedLoanQuery($id: ID!) { loanType(id: $id) { id rate } }` */
const TypedLoanQuery = request(
  'TypedLoanQuery',
  'query',
  ['id'],
  [linked('loanType', 'LoanType', [scalar('id'), scalar('rate')], [variable('id')])],
  'query TypedLoanQuery($id: ID!) {\n  loanType(id: $id) {\n    id\n    rate\n  }\n}\n',
);

/** The typed write, selecting the generic record too: `object { id rate dataObject { id data } }`. */
const TypedWriteMutation = request(
  'TypedWriteMutation',
  'mutation',
  ['id', 'input'],
  [
    linked(
      'updateLoanType',
      'LoanTypeUpdatePayload',
      [
        linked('object', 'LoanType', [
          scalar('id'),
          scalar('rate'),
          linked('dataObject', 'DataObject', [scalar('id'), scalar('data')]),
        ]),
      ],
      [variable('id'), variable('input')],
    ),
  ],
  'mutation TypedWriteMutation($id: ID!, $input: LoanTypePatch!) {\n  updateLoanType(id: $id, input: $input) {\n    object {\n      id\n      rate\n      dataObject {\n        id\n        data\n      }\n    }\n  }\n}\n',
);

/** The generic write, selecting the typed record too: `typed { __typename ... on LoanType { id rate } }`. */
const GenericWriteMutation = request(
  'GenericWriteMutation',
  'mutation',
  ['id', 'data'],
  [
    linked(
      'updateObject',
      'UpdatePayload',
      [
        linked('object', 'DataObject', [
          scalar('id'),
          scalar('data'),
          linked('typed', null, [
            scalar('__typename'),
            {
              kind: 'InlineFragment',
              selections: [scalar('id'), scalar('rate')],
              type: 'LoanType',
              abstractKey: null,
            },
          ]),
        ]),
      ],
      [
        { kind: 'Literal', name: 'objectName', value: 'com.example.LoanType' },
        variable('id'),
        variable('data'),
      ],
    ),
  ],
  'mutation GenericWriteMutation($id: ID!, $data: JSONObject!) {\n  updateObject(objectName: "com.example.LoanType", id: $id, data: $data) {\n    object {\n      id\n      data\n      typed {\n        __typename\n        ... on LoanType {\n          id\n          rate\n        }\n      }\n    }\n  }\n}\n',
);

function commit(environment: Environment, mutation: ConcreteRequest, variables: Record<string, unknown>) {
  return new Promise<unknown>((resolve, reject) => {
    commitMutation(environment, {
      mutation,
      variables,
      onCompleted: (response, errors) => {
        if (errors !== null && errors !== undefined && errors.length > 0)
          reject(new Error(JSON.stringify(errors)));
        else resolve(response);
      },
      onError: reject,
    });
  });
}

it('Relay: a write through either API shows through the other from the store, with no request', async () => {
  const auth = await h.loginHeaders();
  const page = await h.post(
    '{ objects(objectName: "com.example.LoanType", first: 1) { nodes { upstreamId typed { ... on LoanType { id } } } } }',
    {},
    auth,
  );
  const [node] = (page.data as { objects: { nodes: { upstreamId: string; typed: { id: string } }[] } })
    .objects.nodes;
  if (node === undefined) throw new Error(JSON.stringify(page.errors));
  const { upstreamId } = node;
  // The typed API takes its own global id; the generic one the upstream id (README, "Which id goes where").
  const typedId = node.typed.id;
  const sent: string[] = [];
  const environment = relayEnvironment(
    h.graphqlUrl,
    () => auth,
    (name) => sent.push(name),
  );
  const generic = createOperationDescriptor(GenericLoanQuery, { id: upstreamId });
  const typed = createOperationDescriptor(TypedLoanQuery, { id: typedId });
  environment.retain(generic);
  environment.retain(typed);
  await fetchQuery(environment, GenericLoanQuery, { id: upstreamId }).toPromise();
  await fetchQuery(environment, TypedLoanQuery, { id: typedId }).toPromise();
  const genericRate = () =>
    (environment.lookup(generic.fragment).data as { object: { data: { rate: number } } }).object.data.rate;
  const typedRate = () =>
    (environment.lookup(typed.fragment).data as { loanType: { rate: number } }).loanType.rate;
  // Two records of the store, one upstream record.
  const genericId = (environment.lookup(generic.fragment).data as { object: { id: string } }).object.id;
  expect(typedId).not.toBe(genericId);

  await commit(environment, TypedWriteMutation, { id: typedId, input: { rate: 4.125 } });
  expect(typedRate()).toBe(4.125);
  expect(genericRate()).toBe(4.125);

  await commit(environment, GenericWriteMutation, { id: upstreamId, data: { rate: 2.375 } });
  expect(genericRate()).toBe(2.375);
  expect(typedRate()).toBe(2.375);

  // Relay's default fetch policy (store-or-network) answers both screens from the store.
  sent.length = 0;
  await fetchQuery(
    environment,
    GenericLoanQuery,
    { id: upstreamId },
    { fetchPolicy: 'store-or-network' },
  ).toPromise();
  await fetchQuery(
    environment,
    TypedLoanQuery,
    { id: typedId },
    { fetchPolicy: 'store-or-network' },
  ).toPromise();
  expect(sent).toEqual([]);
});
