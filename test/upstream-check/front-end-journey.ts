/**
 * A front-end's journey through the gateway, step by step, each step's outcome kept as the client saw it: a
 * value, or the first GraphQL error's code and extensions. `every-dialect.test.ts` runs it on the check's
 * advice and on the defaults against the same upstream, and asserts every step.
 */
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import type { Harness } from '../support/gateway-harness.ts';
import { DEMO } from '../../emulator/identity/demo-users.ts';
import {
  LoginDocument,
  ObjectsDocument,
  MetadataDocument,
  ObjectDocument,
  OrdersWithCustomersDocument,
  SaveDocument,
  UpdateDocument,
} from '../support/operations.ts';
import { LoanTypesDocument, OrderDocument, OrdersDocument } from '../support/typed-operations.ts';

const LOAN = 'com.example.LoanType';

/** What one step answered: its value, or its (first) named error. */
export type Outcome =
  { ok: unknown } | { code: unknown; message: string; extensions: Record<string, unknown> | undefined };

/** Every step of {@link journey}, in order. */
export type Journey = Record<
  | 'login'
  | 'paging'
  | 'orderById'
  | 'saveCased'
  | 'equals'
  | 'objectByFilter'
  | 'typedFilter'
  | 'typedReference'
  | 'metadata'
  | 'saveLatin1'
  | 'saveWithId'
  | 'update'
  | 'readBack'
  | 'beyondLatin1'
  | 'typo',
  Outcome
>;

function outcome<T>(result: { data?: T; error?: unknown }, value: (data: T) => unknown): Outcome {
  if (result.error === undefined) return { ok: value(result.data as T) };
  const first = CombinedGraphQLErrors.is(result.error) ? result.error.errors[0] : undefined;
  if (first === undefined) throw result.error as Error;
  return { code: first.extensions?.code, message: first.message, extensions: first.extensions };
}

/** Every order, `first: 50` a page until `hasNextPage` is false (or there is no cursor to go on with). */
async function pageAll(client: ReturnType<Harness['client']>, seen: string[]): Promise<Outcome> {
  let after: string | undefined;
  for (let pages = 1; pages <= 20; pages += 1) {
    const result = await client.query({ query: OrdersDocument, variables: { first: 50, after } });
    if (result.error !== undefined) return outcome(result, () => undefined);
    const { nodes, totalCount, pageInfo } = result.data!.orders;
    seen.push(...nodes.map((node) => node!.id));
    if (!pageInfo.hasNextPage || pageInfo.endCursor === null) {
      return { ok: { records: seen.length, distinct: new Set(seen).size, totalCount, pages, pageInfo } };
    }
    after = pageInfo.endCursor;
  }
  return { ok: 'more than 20 pages' };
}

/**
 * Logs in by mobile number (form login), pages through every order with `first: 50`, reads one by id and by
 * filter, filters and follows references through the typed API, reads metadata, saves Latin-1 text, saves
 * one field by `_id`, updates one field, reads it back, and tries text beyond Latin-1. `tag` keeps each run's
 * records apart; `orderId` stands in when the paging step could not list any.
 */
export async function journey(h: Harness, tag: string, orderId: string): Promise<Journey> {
  const login = await h.client().mutate({
    mutation: LoginDocument,
    variables: { username: DEMO.mobile, password: DEMO.password, method: 'FORM' },
  });
  const client = h.client(login.data?.login.token);
  const save = (data: Record<string, unknown>) =>
    client.mutate({ mutation: SaveDocument, variables: { objectName: LOAN, data } });
  const read = (id: string) => client.query({ query: ObjectDocument, variables: { objectName: LOAN, id } });

  const seen: string[] = [];
  const paging = await pageAll(client, seen);
  const anOrder = seen[7] ?? orderId;

  const cased = [`Case ${tag}`, `CASE ${tag.toUpperCase()}`];
  const savedCased = [];
  // The first in another case, and a text that holds it: `equals` must answer neither.
  for (const description of [...cased, `${cased[0]} and more`])
    savedCased.push(await save({ loanType: 'Cased', description }));
  const savedLatin1 = await save({ loanType: 'Société Générale', rate: 3.5, description: 'Grüße' });
  const saveLatin1 = outcome(savedLatin1, (d) => d.saveObject.object?.data);
  // The id as a front end finds it: in the payload, else in the error of a write that was applied.
  const latin1Id =
    savedLatin1.data?.saveObject.id ??
    ('extensions' in saveLatin1 ? (saveLatin1.extensions?.objectId as string | undefined) : undefined) ??
    '';
  const saveWithId = outcome(await save({ _id: latin1Id, rate: 4 }), (d) => d.saveObject.object?.data);
  const update = await client.mutate({
    mutation: UpdateDocument,
    variables: { id: latin1Id, objectName: LOAN, data: { description: 'Mise à jour' } },
  });

  return {
    login: outcome(login, (d) => d.login.user.username),
    paging,
    orderById: outcome(
      await client.query({ query: OrderDocument, variables: { id: anOrder } }),
      (d) => d.order?.id === anOrder,
    ),
    saveCased: outcome(savedCased[1]!, (d) => d.saveObject.object?.data),
    equals: outcome(
      await client.query({
        query: LoanTypesDocument,
        variables: { where: { description: { equals: cased[0] } } },
      }),
      (d) => d.loanTypes.nodes.map((node) => node?.description),
    ),
    objectByFilter: outcome(
      await client.query({
        query: ObjectDocument,
        variables: {
          objectName: LOAN,
          filter: { criteria: [{ fieldName: 'description', operator: 'equals', value: cased[1] }] },
        },
      }),
      (d) => (d.object?.data as { description?: string } | undefined)?.description,
    ),
    typedFilter: outcome(
      await client.query({
        query: OrdersDocument,
        variables: { where: { status: { equals: 'PAID' } }, first: 100 },
      }),
      ({ orders }) => ({
        right: orders.nodes.length === orders.totalCount && orders.nodes.every((n) => n?.status === 'PAID'),
        customersNamed: orders.nodes.every((n) => typeof n?.customer?.name === 'string'),
      }),
    ),
    typedReference: outcome(
      await client.query({ query: OrdersWithCustomersDocument, variables: { first: 30 } }),
      (d) => d.objects.nodes.filter((n) => n.ref !== null && n.ref.id === n.customerId).length,
    ),
    metadata: outcome(
      await client.query({ query: MetadataDocument, variables: { objectId: anOrder } }),
      (d) => d.metadata?.objectId === anOrder,
    ),
    saveLatin1,
    saveWithId,
    update: outcome(update, (d) => d.updateObject.updatedFields),
    readBack: outcome(await read(latin1Id), (d) => d.object?.data),
    // A type name misspelt by the caller (a type schema/objects/ does not declare, read untyped).
    typo: outcome(
      await client.query({ query: ObjectsDocument, variables: { objectName: 'com.example.Ordr', first: 1 } }),
      (d) => d.objects.totalCount,
    ),
    beyondLatin1: outcome(await save({ loanType: 'Ελληνικά', rate: 5 }), (d) => d.saveObject.id),
  };
}
