/**
 * Numbers past 2^53, end to end (a Java upstream's long 9007199254740993 was shown as …992, a
 * filter by the shown value found nothing, `objects:infer` typed the field `Float`). The emulator keeps a
 * whole number past 2^53 as a Java `long`; the gateway reads it with every digit: `data` writes it as is, a
 * typed `Long` serves its digits as a string, a typed `Int` or `Float` is a field error naming the field,
 * a `Long` filter by the exact value finds it, and a typed save writes the digits upstream.
 */
import { gql, type TypedDocumentNode } from '@apollo/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../emulator/index.ts';
import { getAll, login as wireLogin, postJson, type Credentials } from '../support/emulator-wire.ts';
import { useHarness } from '../support/gateway-harness.ts';
import { LONG_NUMBERS_OBJECTS_DIR as FIXTURE } from '../support/object-fixtures.ts';

const LEDGER = 'com.acme.LedgerEntry';
const LONG = '9007199254740993';

const h = useHarness({ env: { OBJECT_TYPES_DIR: FIXTURE }, emulator: { objectTypes: [LEDGER] } });

let token: string;
let wire: Credentials;
let bigId: string;

/** Saves `json` (written by hand, so the long's digits reach the emulator as they are) straight upstream. */
async function saveUpstream(json: string): Promise<string> {
  const { apiToken, applicationCode } = wire;
  const body = `{"objectName":"${LEDGER}","data":${json},"apiToken":"${apiToken}","applicationCode":"${applicationCode}","organizationCode":"${DEMO.organizationCode}"}`;
  const answer = await postJson(h.emulator, '/studio/jsonp/save?callback=cb', body, 'cb');
  expect(answer.json.status).toBe('success');
  return String(answer.json.savedObjectId);
}

/** POSTs a query over HTTP and answers the response body as text: what a lossless client would read. */
async function rawAnswer(query: string, variables: Record<string, unknown> = {}): Promise<string> {
  const response = await fetch(h.graphqlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return response.text();
}

beforeAll(async () => {
  token = await h.login();
  wire = await wireLogin(h.emulator);
  bigId = await saveUpstream(
    `{"label":"big","entryNo":${LONG},"count":${LONG},"amount":${LONG},"reference":${LONG},"blob":${LONG},"nested":{"no":${LONG},"rate":2.5}}`,
  );
  await saveUpstream('{"label":"neighbour","entryNo":9007199254740992,"count":3,"amount":2.5}');
});

interface Entry {
  id: string;
  label: string | null;
  entryNo: string | null;
  reference: string | null;
}

const ENTRY: TypedDocumentNode<{ ledgerEntry: Entry | null }, { id: string }> = gql`
  query Entry($id: ID!) {
    ledgerEntry(id: $id) {
      id
      label
      entryNo
      reference
    }
  }
`;

describe('numbers past 2^53', () => {
  it('should be stored by the emulator with every digit, as a Java long', async () => {
    const answer = await getAll(h.emulator, wire, LEDGER);
    expect(answer.body).toContain(`"entryNo":${LONG}`);
    expect(answer.body).toContain('"entryNo":9007199254740992');
  });

  it('should write the exact digits in the HTTP response of object and objects data', async () => {
    const one = await rawAnswer(`query { object(objectName: "${LEDGER}", id: "${bigId}") { data } }`);
    expect(one).toContain(`"entryNo":${LONG}`);
    expect(one).toContain(`"nested":{"no":${LONG},"rate":2.5}`);
    const page = await rawAnswer(`query { objects(objectName: "${LEDGER}", first: 10) { nodes { data } } }`);
    expect(page).toContain(`"entryNo":${LONG}`);
    expect(page).toContain('"entryNo":9007199254740992');
    // A typed `JSON` field is served as the upstream wrote it, like `data`.
    const typed = await rawAnswer(`query { ledgerEntry(id: "${bigId}") { blob } }`);
    expect(typed.trimEnd()).toBe(`{"data":{"ledgerEntry":{"blob":${LONG}}}}`);
  });

  it('should serve a Long field as a string of its exact digits, and an ID field the same', async () => {
    const result = await h.client(token).query({ query: ENTRY, variables: { id: bigId } });
    expect(result.error).toBeUndefined();
    expect(result.data?.ledgerEntry).toMatchObject({ label: 'big', entryNo: LONG, reference: LONG });
  });

  it.each([
    ['count', 'Int', 'an Int'],
    ['amount', 'Float', 'a Float (a double)'],
  ])(
    'should refuse the long in a typed %s field (%s) as a field error naming it, never rounded',
    async (field, type, holder) => {
      const answer = JSON.parse(
        await rawAnswer(`query ($id: ID!) { ledgerEntry(id: $id) { label ${field} } }`, { id: bigId }),
      ) as {
        data: { ledgerEntry: Record<string, unknown> };
        errors: { message: string; path: string[]; extensions: Record<string, unknown> }[];
      };
      expect(answer.data.ledgerEntry).toEqual({ label: 'big', [field]: null });
      expect(answer.errors).toHaveLength(1);
      expect(answer.errors[0]?.path).toEqual(['ledgerEntry', field]);
      expect(answer.errors[0]?.extensions).toMatchObject({
        code: 'BAD_UPSTREAM_VALUE',
        typeName: 'LedgerEntry',
        field,
        expected: type,
        received: `the number ${LONG}, which ${holder} cannot hold exactly`,
      });
    },
  );

  it('should find the record by a Long filter on its exact value, and not its neighbour', async () => {
    const query: TypedDocumentNode<{ ledgerEntries: { nodes: Entry[] } }> = gql`
      query Exact {
        ledgerEntries(first: 10, where: { entryNo: { equals: "9007199254740993" } }) {
          nodes {
            id
            label
            entryNo
          }
        }
      }
    `;
    const result = await h.client(token).query({ query });
    expect(result.error).toBeUndefined();
    expect(result.data?.ledgerEntries.nodes.map((n) => n.label)).toEqual(['big']);
    const bothQuery: TypedDocumentNode<{ ledgerEntries: { nodes: { label: string }[] } }> = gql`
      query Both {
        ledgerEntries(first: 10, where: { entryNo: { in: [9007199254740993, "9007199254740992"] } }) {
          nodes {
            label
          }
        }
      }
    `;
    const both = await h.client(token).query({ query: bothQuery });
    expect(both.error).toBeUndefined();
    expect(both.data?.ledgerEntries.nodes.map((n) => n.label).sort()).toEqual(['big', 'neighbour']);
  });

  it('should find the record by a generic filter on its exact digits, and not its neighbour', async () => {
    const answer = await rawAnswer(
      `query { objects(objectName: "${LEDGER}", first: 10, filter: { criteria: [{ fieldName: "entryNo", operator: equals, value: "${LONG}" }] }) { nodes { id } } }`,
    );
    expect(JSON.parse(answer)).toEqual({ data: { objects: { nodes: [{ id: bigId }] } } });
  });

  it('should save a Long with its digits and read them back, through the typed API and upstream', async () => {
    const save: TypedDocumentNode<
      { saveLedgerEntry: { id: string; object: Entry | null } },
      { entryNo: string }
    > = gql`
      mutation Save($entryNo: Long!) {
        saveLedgerEntry(input: { label: "saved", entryNo: $entryNo }) {
          id
          object {
            id
            label
            entryNo
          }
        }
      }
    `;
    const saved = await h
      .client(token)
      .mutate({ mutation: save, variables: { entryNo: '9223372036854775807' } });
    expect(saved.error).toBeUndefined();
    expect(saved.data?.saveLedgerEntry.object?.entryNo).toBe('9223372036854775807');
    const id = saved.data?.saveLedgerEntry.id ?? '';
    const upstream = await getAll(h.emulator, wire, LEDGER);
    expect(upstream.body).toContain('"entryNo":9223372036854775807');
    const read = await h.client(token).query({ query: ENTRY, variables: { id } });
    expect(read.data?.ledgerEntry?.entryNo).toBe('9223372036854775807');
  });

  it('should keep the digits of the fields an update leaves alone, beside a nested field it changes', async () => {
    // `nestedRate` is `nested.rate`: the update reads `nested`, copies it with its long, and writes it whole.
    const update = await h.post(
      `mutation ($id: ID!) { updateLedgerEntry(id: $id, input: { label: "big, renamed", nestedRate: 3.5 }) { object { entryNo nestedNo nestedRate } } }`,
      { id: bigId },
      { authorization: `Bearer ${token}` },
    );
    expect(update.errors).toBeUndefined();
    expect(update.data?.updateLedgerEntry).toEqual({
      object: { entryNo: LONG, nestedNo: LONG, nestedRate: 3.5 },
    });
    const upstream = await getAll(h.emulator, wire, LEDGER);
    expect(upstream.body).toContain(`"entryNo":${LONG}`);
    expect(upstream.body).toContain(`"nested":{"no":${LONG},"rate":3.5}`);
  });

  it('should write back what data read, a long in the JSON variables kept digit for digit (generic save)', async () => {
    const read = await rawAnswer(`query { object(objectName: "${LEDGER}", id: "${bigId}") { data } }`);
    // What a lossless client sends back: the data as read, the long as a JSON number with its digits.
    const data = read.trimEnd().slice(read.indexOf('{"_id"'), read.trimEnd().lastIndexOf('}}}'));
    const copy = data.replace(/"_id":"[^"]*",?/, '').replace('"label":"big', '"label":"copy of big');
    const body = `{"query":"mutation ($data: JSONObject!) { saveObject(objectName: \\"${LEDGER}\\", data: $data) { id } }","variables":{"data":${copy}}}`;
    const response = await fetch(h.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
    });
    const saved = (await response.json()) as { data?: { saveObject: { id: string } }; errors?: unknown[] };
    expect(saved.errors).toBeUndefined();
    const again = await rawAnswer(
      `query { object(objectName: "${LEDGER}", id: "${saved.data?.saveObject.id ?? ''}") { data } }`,
    );
    expect(again).toContain(`"entryNo":${LONG}`);
    expect(again).toContain(`"nested":{"no":${LONG},`);
  });

  it('should keep a long written in the document in JSON data (generic save), and refuse one past 64 bits', async () => {
    const saved = await h.post(
      `mutation { saveObject(objectName: "${LEDGER}", data: { label: "literal", entryNo: ${LONG}, list: [${LONG}, 1.5] }) { id } }`,
      {},
      { authorization: `Bearer ${token}` },
    );
    expect(saved.errors).toBeUndefined();
    const id = (saved.data?.saveObject as { id: string }).id;
    const again = await rawAnswer(`query { object(objectName: "${LEDGER}", id: "${id}") { data } }`);
    expect(again).toContain(`"entryNo":${LONG},"list":[${LONG},1.5]`);
    const refused = await h.post(
      `mutation { saveObject(objectName: "${LEDGER}", data: { entryNo: 18446744073709551616 }) { id } }`,
      {},
      { authorization: `Bearer ${token}` },
    );
    expect(refused.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      reason: 'inexact_number',
    });
  });

  it('should refuse a long in the variables where a Float is declared, before any upstream call', async () => {
    h.emulator.resetStats();
    const response = await fetch(h.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: `{"query":"mutation ($amount: Float) { saveLedgerEntry(input: { amount: $amount }) { id } }","variables":{"amount":${LONG}}}`,
    });
    const answer = (await response.json()) as {
      errors?: { message: string; extensions?: { code?: string } }[];
    };
    expect(answer.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(answer.errors?.[0]?.message).toContain('$amount');
    expect(h.totalUpstreamCalls()).toBe(0);
  });

  it('should refuse a Long input that is no 64-bit whole number before any upstream call', async () => {
    h.emulator.resetStats();
    const answer = await h.post(
      'mutation { saveLedgerEntry(input: { entryNo: "9223372036854775808" }) { id } }',
      {},
      { authorization: `Bearer ${token}` },
    );
    expect(answer.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(answer.errors?.[0]?.message).toContain('64-bit whole number');
    expect(h.totalUpstreamCalls()).toBe(0);
  });
});
