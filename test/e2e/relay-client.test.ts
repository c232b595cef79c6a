/**
 * Relay, with its own runtime, against the real gateway (`RELAY_NODE=true`) and emulator on loopback: a page
 * of customers is normalised by their global ids, a fragment is refetched through `node(id:)` with the
 * query `@refetchable` generates, and the README's mutation, committed through Relay's store, updates the
 * object it wrote in place (artifacts written as the compiler emits them: `relay-artifacts.ts`,
 * `relay-mutation-artifacts.ts`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, print } from 'graphql';
import {
  commitMutation,
  createOperationDescriptor,
  fetchQuery,
  getSelector,
  type Environment,
} from 'relay-runtime';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/gateway-harness.ts';
import { relayEnvironment } from '../support/relay-environment.ts';
import { CustomerCardFragment, CustomerCardRefetchQuery, CustomerListQuery } from './relay-artifacts.ts';
import { LoanTypeScreenQuery, UpdateLoanTypeMutation } from './relay-mutation-artifacts.ts';

const h = useHarness({ env: { RELAY_NODE: 'true' } });

interface Card {
  id: string;
  name: string;
}

/** A Relay environment whose network POSTs to the gateway with the session, as an app's would. */
function sessionEnvironment(token: string, sent: string[]): Environment {
  return relayEnvironment(
    h.graphqlUrl,
    () => ({ authorization: `Bearer ${token}` }),
    (name) => sent.push(name),
  );
}

function readCard(environment: Environment, ref: unknown): Card {
  const selector = getSelector(CustomerCardFragment, ref);
  if (selector.kind !== 'SingularReaderSelector') throw new Error('not a singular fragment reference');
  return environment.lookup(selector).data as unknown as Card;
}

describe('Relay against the gateway', () => {
  it('should normalise a page by global id and refetch a fragment through node(id:)', async () => {
    const token = await h.login();
    const sent: string[] = [];
    const environment = sessionEnvironment(token, sent);

    const list = createOperationDescriptor(CustomerListQuery, {});
    environment.retain(list);
    await fetchQuery(environment, CustomerListQuery, {}).toPromise();
    const page = environment.lookup(list.fragment).data as { customers: { nodes: { id: string }[] } };
    const [first, second] = page.customers.nodes;
    if (first === undefined || second === undefined) throw new Error('expected two customers');
    const before = readCard(environment, first);
    expect(before.id).toBe(first.id);
    // Relay keys its records by `id`: the global id, unique across every type of the schema.
    expect(environment.getStore().getSource().get(first.id)).toMatchObject({ __typename: 'Customer' });

    // Someone else renames the customer (through the typed API, with the same global id).
    const renamed = `${before.name} (renamed)`;
    const update = await h.post(
      'mutation ($id: ID!, $name: String!) { updateCustomer(id: $id, input: { name: $name }) { upstreamId } }',
      { id: first.id, name: renamed },
      { authorization: `Bearer ${token}` },
    );
    expect(update.errors).toBeUndefined();
    expect(readCard(environment, first).name).toBe(before.name);

    // The refetchable fragment's query, as useRefetchableFragment's refetch() sends it.
    const refetch = createOperationDescriptor(CustomerCardRefetchQuery, { id: first.id });
    environment.retain(refetch);
    await fetchQuery(environment, CustomerCardRefetchQuery, { id: first.id }).toPromise();
    expect(sent).toEqual(['CustomerListQuery', 'CustomerCardRefetchQuery']);
    expect(readCard(environment, first)).toEqual({ id: first.id, name: renamed });
    // The same record, updated in place: the other card is untouched.
    const refetched = environment.lookup(refetch.fragment).data as { node: unknown };
    expect(readCard(environment, refetched.node)).toEqual({ id: first.id, name: renamed });
    expect(readCard(environment, second).id).toBe(second.id);
  });
});

interface LoanTypeRow {
  id: string;
  loanType: string;
  rate: number | null;
}

/** Commits a mutation through Relay's store, as an app's `useMutation` does; the response as Relay read it. */
function commit(
  environment: Environment,
  variables: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    commitMutation(environment, {
      mutation: UpdateLoanTypeMutation,
      variables,
      onCompleted: (response, errors) => {
        if (errors && errors.length > 0) reject(new Error(errors.map((e) => e.message).join('; ')));
        else resolve(response);
      },
      onError: reject,
    });
  });
}

/** The text of the `graphql` template in the README's Relay section. */
function readmeRelayMutation(): string {
  const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
  const start = readme.indexOf('\n### Relay\n');
  const section = readme.slice(start, readme.indexOf('\n## ', start));
  const template = /graphql`([^`]*)`/.exec(section)?.[1];
  if (template === undefined) throw new Error("no graphql`…` template in the README's Relay section");
  return template;
}

describe('Relay writes against the gateway', () => {
  it('should keep the object a mutation wrote whole in the store, under its own type', async () => {
    const environment = sessionEnvironment(await h.login(), []);
    const screen = createOperationDescriptor(LoanTypeScreenQuery, {});
    environment.retain(screen);
    await fetchQuery(environment, LoanTypeScreenQuery, {}).toPromise();
    const shown = environment.lookup(screen.fragment).data as { loanTypes: { nodes: LoanTypeRow[] } };
    const [row] = shown.loanTypes.nodes;
    if (row === undefined) throw new Error('expected a loan type');
    const rate = (row.rate ?? 0) + 0.25;

    const response = await commit(environment, { id: row.id, input: { rate } });

    expect(response).toEqual({
      updateLoanType: { upstreamId: expect.any(String) as unknown, object: { id: row.id, rate } },
    });
    // The screen still shows the name the mutation did not select, beside the new rate.
    const after = environment.lookup(screen.fragment);
    expect(after.isMissingData).toBe(false);
    expect(after.data).toEqual({ loanTypes: { nodes: [{ ...row, rate }] } });
    // The object's record is still a LoanType: no payload was merged into it.
    expect(environment.getStore().getSource().get(row.id)).toMatchObject({
      __typename: 'LoanType',
      loanType: row.loanType,
      rate,
    });
  });

  it("should be the mutation the README's Relay section shows", () => {
    const text = UpdateLoanTypeMutation.params.text ?? '';
    expect(print(parse(readmeRelayMutation()))).toBe(print(parse(text)));
  });
});
