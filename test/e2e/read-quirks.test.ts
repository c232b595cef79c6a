/**
 * The gateway in front of an emulator speaking the read dialects of an upstream written apart from this
 * project (`emulator/operations/read-quirks.ts`), end to end over loopback: every answer is right or a named
 * error, never a silently wrong one, and none of them is counted as the upstream's ill health.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { useHarness, type Harness } from '../support/gateway-harness.ts';
import type { ReadQuirks } from '../../emulator/operations/read-quirks.ts';

const LOANS = `query Loans($filter: FilterInput) {
  objects(objectName: "com.example.LoanType", first: 100, filter: $filter) { totalCount nodes { data } }
}`;
const ORDERS = `query Orders($filter: FilterInput) {
  objects(objectName: "com.example.Order", first: 100, filter: $filter) { totalCount nodes { id data } }
}`;
const ONE_ORDER = `query One($filter: FilterInput) { object(objectName: "com.example.Order", filter: $filter) { id data } }`;
const ME = '{ me { username organizationCode } }';

interface Answer {
  data?: Record<string, unknown> | null | undefined;
  errors?: readonly { message: string; extensions?: Record<string, unknown> }[] | undefined;
}

function harness(readQuirks: ReadQuirks, emulator: Record<string, unknown> = {}): Harness {
  return useHarness({ emulator: { readQuirks, ...emulator }, listen: false });
}

async function ask(
  h: Harness,
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
): Promise<Answer> {
  const bearer = token ?? (await h.login());
  return await h.post(query, variables, { authorization: `Bearer ${bearer}` });
}

function loanTypesOf(answer: Answer): string[] {
  expect(answer.errors).toBeUndefined();
  const objects = answer.data?.objects as { nodes: { data: { loanType: string } }[] };
  return objects.nodes.map((n) => n.data.loanType).sort();
}

const codeOf = (answer: Answer): unknown => answer.errors?.[0]?.extensions?.code;

describe('an upstream that wraps every value as "^" + value + "$" and finds it', () => {
  const h = harness({ wrapAnchors: true });

  it('should answer an in with exactly its values (the alternation goes out grouped)', async () => {
    // Sent as Home|Fixed|Car\x20Green, the wrapping anchored Home at the start and Green at the end only:
    // every Home … and every … Green answered.
    const answer = await ask(h, LOANS, {
      filter: {
        criteria: [{ fieldName: 'loanType', operator: 'in', values: ['Home', 'Fixed', 'Car Green'] }],
      },
    });
    expect(new Set(loanTypesOf(answer))).toEqual(new Set(['Car Green']));
  });

  it('should answer a caller’s alternation as a whole-value match', async () => {
    const answer = await ask(h, LOANS, {
      filter: { criteria: [{ fieldName: 'loanType', operator: 'matches', value: 'Home.*|Car Green' }] },
    });
    const types = loanTypesOf(answer);
    expect(types.length).toBeGreaterThan(0);
    expect(types.every((t) => t.startsWith('Home') || t === 'Car Green')).toBe(true);
  });
});

describe('an upstream that keeps only the last criterion on each field', () => {
  const h = harness({ lastCriterionPerField: true });

  it('should refuse the answer with UPSTREAM_DIALECT_MISMATCH naming the criterion, never serve it', async () => {
    const answer = await ask(h, LOANS, {
      filter: {
        criteria: [
          { fieldName: 'loanType', operator: 'startsWith', value: 'Home' },
          { fieldName: 'loanType', operator: 'endsWith', value: 'Green' },
        ],
      },
    });
    expect(answer.data?.objects ?? null).toBeNull();
    expect(answer.errors?.[0]?.extensions).toMatchObject({
      code: 'UPSTREAM_DIALECT_MISMATCH',
      blame: 'gateway',
      assumption: 'filter_answer',
      criterion: { fieldName: 'loanType', operator: 'startsWith' },
    });
    expect(answer.errors?.[0]?.message).toContain('only the last criterion');
  });

  it('should never count such answers as ill health: the breaker stays closed for everyone', async () => {
    const token = await h.login();
    const twice = {
      criteria: [
        { fieldName: 'loanType', operator: 'startsWith', value: 'Home' },
        { fieldName: 'loanType', operator: 'endsWith', value: 'Green' },
      ],
    };
    for (let i = 0; i < 30; i++) {
      const answer = await ask(h, LOANS, { filter: twice }, token);
      expect(codeOf(answer)).toBe('UPSTREAM_DIALECT_MISMATCH');
    }
    expect((await ask(h, LOANS, {}, token)).errors).toBeUndefined();
  });

  it('should refuse it through the typed API too (one where field, two operators)', async () => {
    const answer = await ask(
      h,
      '{ orders(first: 100, where: { status: { startsWith: "P", endsWith: "D" } }) { nodes { status } } }',
    );
    expect(answer.errors?.[0]?.extensions).toMatchObject({
      code: 'UPSTREAM_DIALECT_MISMATCH',
      criterion: { fieldName: 'status', operator: 'startsWith' },
    });
    expect(JSON.stringify(answer.data ?? null)).not.toContain('SHIPPED');
  });

  it('should still answer one criterion per field right', async () => {
    const answer = await ask(h, LOANS, {
      filter: { criteria: [{ fieldName: 'loanType', operator: 'endsWith', value: 'Green' }] },
    });
    const types = loanTypesOf(answer);
    expect(types.length).toBeGreaterThan(0);
    expect(types.every((t) => t.endsWith('Green'))).toBe(true);
  });
});

describe('an upstream that ignores organizationCode on reads', () => {
  const logStream = new PassThrough();
  const logLines: string[] = [];
  logStream.on('data', (chunk: Buffer) => logLines.push(chunk.toString('utf8')));
  const h = useHarness({ emulator: { readQuirks: { ignoreOrganization: true } }, listen: false, logStream });
  // Orders of organization globex (tenant 2) are numbered ORD-2…; the session is acme's.
  const globex = { criteria: [{ fieldName: 'number', operator: 'startsWith', value: 'ORD-2' }] };

  it('should never serve a page holding another organization’s records', async () => {
    const answer = await ask(h, ORDERS, { filter: globex });
    expect(codeOf(answer)).toBe('UPSTREAM_TENANT_MISMATCH');
    expect(answer.errors?.[0]?.extensions?.blame).toBe('upstream_refusal');
    expect(JSON.stringify(answer.data ?? null)).not.toContain('ORD-2');
  });

  it('should never serve another organization’s record from object(filter:)', async () => {
    const answer = await ask(h, ONE_ORDER, { filter: globex });
    expect(codeOf(answer)).toBe('UPSTREAM_TENANT_MISMATCH');
    expect(JSON.stringify(answer.data ?? null)).not.toContain('ORD-2');
  });

  it('should log each as a security event without a secret, and count it', async () => {
    const token = await h.login();
    await ask(h, ORDERS, { filter: globex }, token);
    const events = logLines
      .flatMap((chunk) => chunk.split('\n'))
      .filter((line) => line.includes('"event":"tenant_mismatch"'));
    expect(events.length).toBeGreaterThan(0);
    for (const line of events) {
      expect(JSON.parse(line)).toMatchObject({ level: 50, expected: 'acme', received: 'globex' });
      expect(line).not.toContain('demo-password');
      expect(line).not.toContain(token);
    }
    const metrics = await (await h.fetch('/metrics')).text();
    expect(metrics).toMatch(/gateway_upstream_tenant_mismatches_total\{operation="getAll"\} [1-9]/);
  });

  it('should serve the session’s own organization’s records', async () => {
    const answer = await ask(h, ORDERS, {
      filter: { criteria: [{ fieldName: 'number', operator: 'startsWith', value: 'ORD-100001' }] },
    });
    expect(answer.errors).toBeUndefined();
  });
});

describe('an upstream whose getObject answers one object instead of an array', () => {
  const h = harness({ getObjectSingle: true });

  it('should name the dialect on every such read and never open the breaker for everyone', async () => {
    const token = await h.login();
    const filter = { criteria: [{ fieldName: 'status', operator: 'equals', value: 'PAID' }] };
    for (let i = 0; i < 30; i++) {
      const answer = await ask(h, ONE_ORDER, { filter }, token);
      expect(answer.errors?.[0]?.extensions).toMatchObject({
        code: 'UPSTREAM_DIALECT_MISMATCH',
        assumption: 'answer_shape',
      });
    }
    // The same upstream origin still serves pages: the breaker did not open.
    const page = await ask(h, ORDERS, {}, token);
    expect(page.errors).toBeUndefined();
  });
});

describe.each(['redirect', 'html', 'text'] as const)('an upstream answering a dead session as %s', (form) => {
  let clock = Date.now();
  const h = harness({ deadSession: form }, { now: () => clock, tokenTtlSeconds: 60 });

  it('should answer UNAUTHENTICATED and end the gateway session', async () => {
    const token = await h.login();
    const before = await ask(h, ORDERS, {}, token);
    expect(before.errors, JSON.stringify(before.errors)).toBeUndefined();
    clock += 120_000;
    const answer = await ask(h, ORDERS, {}, token);
    expect(codeOf(answer)).toBe('UNAUTHENTICATED');
    const me = await ask(h, ME, {}, token);
    expect(me.data?.me ?? null).toBeNull();
  });
});

describe('an upstream that locks an account out', () => {
  const h = harness({ lockedUsers: ['demo'] });

  it('should answer ACCOUNT_LOCKED, not a wrong password', async () => {
    const answer = (await h.post(
      `mutation { login(username: "demo", password: "demo-password") { token } }`,
    )) as Answer;
    expect(codeOf(answer)).toBe('ACCOUNT_LOCKED');
  });
});

describe('an upstream whose natural order moves a record another writer updates (MMAPv1)', () => {
  const h = harness({ naturalOrderMoves: true });
  const PAGE = `query Page($first: Int, $after: String, $last: Int, $before: String) {
    objects(objectName: "com.example.Order", first: $first, after: $after, last: $last, before: $before) {
      totalCount nodes { id } pageInfo { hasNextPage startCursor endCursor }
    }
  }`;
  const UPDATE = `mutation Touch($id: ID!, $note: String) {
    updateObject(objectName: "com.example.Order", id: $id, data: { note: $note }) { id }
  }`;
  interface Page {
    totalCount: number;
    nodes: { id: string }[];
    pageInfo: { hasNextPage: boolean; startCursor: string | null; endCursor: string | null };
  }
  const pageOf = (answer: Answer): Page => {
    expect(answer.errors).toBeUndefined();
    return answer.data?.objects as Page;
  };

  /** Every id of the list, paging two at a time from the first page. */
  async function pageThrough(token: string): Promise<{ ids: string[]; totalCount: number }> {
    const ids: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page = pageOf(await ask(h, PAGE, { first: 2, after }, token));
      ids.push(...page.nodes.map((node) => node.id));
      if (!page.pageInfo.hasNextPage) return { ids, totalCount: page.totalCount };
      after = page.pageInfo.endCursor;
    }
  }

  it('should refuse the next page with STALE_CURSOR once a record before the cursor moved, never repeat or skip one', async () => {
    const token = await h.login();
    const first = pageOf(await ask(h, PAGE, { first: 2 }, token));
    // Another writer updates the first record: it moves to the end, every later record one place up.
    const moved = first.nodes[0]?.id;
    const write = await ask(h, UPDATE, { id: moved, note: `moved ${Date.now()}` }, token);
    expect(write.errors).toBeUndefined();
    const next = await ask(h, PAGE, { first: 2, after: first.pageInfo.endCursor }, token);
    expect(next.data?.objects ?? null).toBeNull();
    expect(next.errors?.[0]?.extensions).toMatchObject({ code: 'STALE_CURSOR', argumentName: 'after' });
    // Read again from the first page, as the error says: every record exactly once.
    const again = await pageThrough(token);
    expect(new Set(again.ids).size).toBe(again.ids.length);
    expect(again.ids).toHaveLength(again.totalCount);
    expect(again.ids.at(-1)).toBe(moved);
  });

  it('should refuse a page before a cursor whose record moved, naming "before"', async () => {
    const token = await h.login();
    const window = pageOf(await ask(h, PAGE, { first: 4 }, token));
    const cursor = window.pageInfo.endCursor;
    const write = await ask(h, UPDATE, { id: window.nodes[0]?.id, note: `moved ${Date.now()}` }, token);
    expect(write.errors).toBeUndefined();
    const back = await ask(h, PAGE, { last: 2, before: cursor }, token);
    expect(back.errors?.[0]?.extensions).toMatchObject({ code: 'STALE_CURSOR', argumentName: 'before' });
  });

  it('should page on with a cursor as long as the list stands', async () => {
    const token = await h.login();
    const { ids, totalCount } = await pageThrough(token);
    expect(new Set(ids).size).toBe(totalCount);
  });
});
