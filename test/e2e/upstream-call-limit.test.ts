/**
 * `MAX_UPSTREAM_CALLS_PER_REQUEST` before execution, through a real client: an operation whose estimated
 * upstream calls pass the setting is refused before any resolver runs, so the upstream never sees it; an
 * ordinary page with its references goes through, in no more calls than estimated.
 */
import { gql, type TypedDocumentNode } from '@apollo/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/gateway-harness.ts';
import { errorCodes, firstError } from '../support/graphql-errors.ts';

const LOAN = 'com.example.LoanType';

/** Three aliased pages with per-object metadata: 3 pages + 3 × `first` metadata calls. */
const FanOutDocument: TypedDocumentNode<Record<string, unknown>, { objectName: string; first: number }> = gql`
  query FanOut($objectName: String!, $first: Int) {
    a: objects(objectName: $objectName, first: $first) {
      nodes {
        metadata {
          objectId
        }
      }
    }
    b: objects(objectName: $objectName, first: $first) {
      nodes {
        metadata {
          objectId
        }
      }
    }
    c: objects(objectName: $objectName, first: $first) {
      nodes {
        metadata {
          objectId
        }
      }
    }
  }
`;

const OrdersDocument: TypedDocumentNode<
  { orders: { nodes: { id: string; number: string; customer: { name: string } | null }[] } },
  { first: number }
> = gql`
  query OrdersWithCustomer($first: Int) {
    orders(first: $first) {
      nodes {
        id
        number
        customer {
          name
        }
      }
    }
  }
`;

let token: string;
const h = useHarness({ resetStatsEachTest: true });
beforeAll(async () => {
  token = await h.login();
});

/** Every upstream call the emulator answered since the last reset, as its own stats endpoint reports them. */
async function emulatorCalls(): Promise<number> {
  const stats = (await (await fetch(`${h.emulator.url}/__emulator/stats`)).json()) as Record<string, number>;
  return Object.values(stats).reduce((a, b) => a + b, 0);
}

describe('the static upstream-call estimate', () => {
  it('should refuse three aliased 100-object pages with metadata before the upstream sees one call', async () => {
    const result = await h
      .client(token)
      .query({ query: FanOutDocument, variables: { objectName: LOAN, first: 100 } });
    expect(errorCodes(result.error)).toEqual(['MAX_UPSTREAM_CALLS_EXCEEDED']);
    const { message, extensions } = firstError(result.error);
    expect(extensions).toEqual({
      code: 'MAX_UPSTREAM_CALLS_EXCEEDED',
      limit: 'MAX_UPSTREAM_CALLS_PER_REQUEST',
      max: 50,
      estimated: 303,
      blame: 'caller',
    });
    expect(message).toMatch(/about 303 upstream calls; at most 50/);
    expect(message).toMatch(/smaller pages.*fewer aliased.*metadata/);
    expect(result.data).toBeUndefined();
    expect(await emulatorCalls()).toBe(0);
  });

  it('should answer the refusal with HTTP 400', async () => {
    const response = await fetch(h.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        query: `{ a: objects(objectName: "${LOAN}", first: 100) { nodes { metadata { data } } } }`,
      }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: { extensions: { estimated: number } }[] };
    expect(body.errors[0]?.extensions.estimated).toBe(101);
    expect(await emulatorCalls()).toBe(0);
  });

  it('should refuse a fan-out whose page sizes are literals every time, whatever its other variables', async () => {
    // Its estimate depends on no variable, so it is kept per document: every request is still refused.
    const query = `query Fixed($objectName: String!) {
      a: objects(objectName: $objectName, first: 100) { nodes { metadata { data } } }
    }`;
    for (const objectName of [LOAN, 'com.example.Order', LOAN]) {
      const response = await fetch(h.graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query, variables: { objectName } }),
      });
      expect(response.status).toBe(400);
    }
    expect(await emulatorCalls()).toBe(0);
  });

  it('should let the same operation through with small pages', async () => {
    const result = await h
      .client(token)
      .query({ query: FanOutDocument, variables: { objectName: LOAN, first: 5 } });
    expect(result.error).toBeUndefined();
    expect(await emulatorCalls()).toBeLessThanOrEqual(3 + 15);
  });

  it('should let a full page of orders with their customers through, in no more calls than estimated', async () => {
    const result = await h.client(token).query({ query: OrdersDocument, variables: { first: 100 } });
    expect(result.error).toBeUndefined();
    expect(result.data?.orders.nodes.length).toBeGreaterThan(0);
    expect(result.data?.orders.nodes.some((order) => order.customer !== null)).toBe(true);
    expect(await emulatorCalls()).toBeLessThanOrEqual(2);
  });
});

describe('MAX_UPSTREAM_CALLS_PER_REQUEST', () => {
  let tunedToken: string;
  const tuned = useHarness({ env: { MAX_UPSTREAM_CALLS_PER_REQUEST: '5' } });
  beforeAll(async () => {
    tunedToken = await tuned.login();
  });

  it('should refuse against the setting', async () => {
    const client = tuned.client(tunedToken);
    const refused = await client.query({ query: FanOutDocument, variables: { objectName: LOAN, first: 1 } });
    expect(firstError(refused.error).extensions).toMatchObject({ max: 5, estimated: 6 });
    const passed = await client.query({ query: OrdersDocument, variables: { first: 100 } });
    expect(passed.error).toBeUndefined();
  });
});

describe('writes under the call budget (MAX_UPSTREAM_CALLS_PER_REQUEST=5)', () => {
  const tuned = useHarness({ env: { MAX_UPSTREAM_CALLS_PER_REQUEST: '5' }, resetStatsEachTest: true });
  let tunedToken: string;
  beforeAll(async () => {
    tunedToken = await tuned.login();
  });
  /** `count` aliased saves of new loan types, selecting `selection` of their payloads. */
  const saves = (count: number, selection = 'id object { id }') =>
    `mutation Saves { ${Array.from(
      { length: count },
      (_, i) =>
        `s${String(i)}: saveObject(objectName: "${LOAN}", data: { loanType: "budget-${String(i)}" }) { ${selection} }`,
    ).join(' ')} }`;
  const post = async (query: string) => {
    const response = await fetch(tuned.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tunedToken}` },
      body: JSON.stringify({ query }),
    });
    return {
      status: response.status,
      ...((await response.json()) as {
        data?: Record<string, { id: string; object: { id: string } | null } | null>;
        errors?: { extensions: Record<string, unknown> }[];
      }),
    };
  };

  it('should count each save with its read-back, refusing before the first write what the budget cannot finish', async () => {
    // Three saves are six calls with their read-backs, whatever they select: past five, refused whole, nothing
    // written. (Counted as one call each, they went through and the third read-back was cut.)
    const writesBefore = tuned.emulator.writesByObjectName()[LOAN] ?? 0;
    const refused = await post(saves(3, 'id'));
    expect(refused.status).toBe(400);
    expect(refused.errors?.[0]?.extensions).toMatchObject({
      code: 'MAX_UPSTREAM_CALLS_EXCEEDED',
      estimated: 6,
    });
    expect(tuned.emulator.writesByObjectName()[LOAN] ?? 0).toBe(writesBefore);
  });

  it('should finish every save of a request within the budget, each read back, none cut by it', async () => {
    const answer = await post(saves(2));
    expect(answer.errors).toBeUndefined();
    expect(Object.values(answer.data ?? {}).map((saved) => saved?.object?.id)).toEqual([
      expect.any(String),
      expect.any(String),
    ]);
  });
});
