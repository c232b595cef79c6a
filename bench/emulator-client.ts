/**
 * The bench's own calls to the emulator: login, its call counters, the records the expected answers are
 * built from, and P0's requests (the upstream called directly, no gateway).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeJsonp } from './load-job.ts';
import { readPath, type ReadOperation } from './peers/upstream-reads.ts';
import type { BenchSession } from './bench-users.ts';
import { PAGE_SIZE, SAVED_FIELDS, TYPES, W1_OBJECTS, workloadVariants } from './workloads.ts';
import type { Fixture, UpstreamRecord, WorkloadId } from './workloads.ts';

/** The demo tenant of the emulator (docs/design.md). */
export const DEMO = {
  applicationCode: 'demo',
  organizationCode: 'acme',
  username: 'demo',
  password: 'demo-password',
} as const;

/** An HTTP request as the load generator sends it. */
export interface PlainRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

/** Logs in with the JSON login (default: the demo user) and returns the upstream token. */
export async function loginUpstream(
  emulatorUrl: string,
  user: { username: string; password: string } = DEMO,
): Promise<string> {
  const response = await fetch(`${emulatorUrl}/v1/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: user.username, password: user.password }),
  });
  const answer = (await response.json()) as { status?: unknown; token?: unknown };
  if (answer.status !== 'success' || typeof answer.token !== 'string')
    throw new Error(`emulator login of ${user.username} failed`);
  return answer.token;
}

/** Logs each of `users` in to the emulator (one after the other: the emulator is not what is measured). */
export async function loginSessions(
  emulatorUrl: string,
  users: readonly { username: string; password: string }[],
): Promise<BenchSession[]> {
  const sessions: BenchSession[] = [];
  for (const { username, password } of users)
    sessions.push({
      username,
      password,
      upstreamToken: await loginUpstream(emulatorUrl, { username, password }),
    });
  return sessions;
}

/** Total upstream operations the emulator has served: the sum of every counter of `/__emulator/stats`. */
export async function upstreamCallCount(emulatorUrl: string): Promise<number> {
  const response = await fetch(`${emulatorUrl}/__emulator/stats`);
  const sum = (value: unknown): number => {
    if (typeof value === 'number') return value;
    if (typeof value === 'object' && value !== null)
      return Object.values(value).reduce<number>((a, v) => a + sum(v), 0);
    return 0;
  };
  return sum(await response.json());
}

/**
 * Waits until the emulator's counters stop moving: a peer may still be working off requests the load
 * generator abandoned at the end of a run, and those calls (and that CPU) must not land in the next one.
 */
export async function waitForQuiet(
  emulatorUrl: string,
  quietMillis = 75,
  timeoutMillis = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMillis;
  let last = await upstreamCallCount(emulatorUrl);
  while (Date.now() < deadline) {
    await sleep(quietMillis);
    const now = await upstreamCallCount(emulatorUrl);
    if (now === last) return;
    last = now;
  }
}

function readUrl(
  emulatorUrl: string,
  user: { username: string; token: string },
  operation: ReadOperation,
  objectName: string,
  id?: string,
  pageSize?: number,
): string {
  return emulatorUrl + readPath(operation, { ...DEMO, ...user }, objectName, id, pageSize);
}

async function readAll(url: string): Promise<{ totalCount: number; data: UpstreamRecord[] }> {
  const answer = decodeJsonp(await (await fetch(url)).text()) as {
    status?: unknown;
    data?: unknown;
    totalCount?: unknown;
  };
  if (answer.status !== 'success' || !Array.isArray(answer.data))
    throw new Error(`emulator read failed: ${url.split('?')[0] ?? ''}`);
  return { totalCount: Number(answer.totalCount), data: answer.data as UpstreamRecord[] };
}

/** Reads the records the expected answers are made of, straight from the emulator. */
export async function loadFixture(emulatorUrl: string, token: string): Promise<Fixture> {
  const demo = { username: DEMO.username, token };
  const loanTypes = await readAll(readUrl(emulatorUrl, demo, 'getAll', TYPES.loanType, undefined, 1000));
  const orders = await readAll(readUrl(emulatorUrl, demo, 'getAll', TYPES.order, undefined, PAGE_SIZE));
  const customers = await readAll(readUrl(emulatorUrl, demo, 'getAll', TYPES.customer, undefined, 1000));
  const objects = loanTypes.data.slice(0, W1_OBJECTS);
  const hotObject = loanTypes.data.at(-1);
  if (hotObject === undefined || loanTypes.data.length <= W1_OBJECTS) {
    throw new Error(
      `the emulator holds ${loanTypes.data.length} loan types; the bench needs more than ${W1_OBJECTS}`,
    );
  }
  if (orders.data.length !== PAGE_SIZE) throw new Error(`the emulator holds fewer than ${PAGE_SIZE} orders`);
  return {
    objects,
    hotObject,
    orders: { totalCount: orders.totalCount, page: orders.data },
    customersById: new Map(customers.data.map((customer) => [customer._id, customer])),
  };
}

/**
 * P0's requests for a workload, one per variant: the equivalent JSONP call to the emulator (none for W3 and W3T),
 * with the upstream token of the variant's session (`sessions[i]`, or the demo user's `token`).
 */
export function directRequests(
  emulatorUrl: string,
  token: string,
  sessions: readonly BenchSession[],
  workload: WorkloadId,
  fixture: Fixture,
): PlainRequest[] | undefined {
  if (workload === 'W3' || workload === 'W3T') return undefined;
  return workloadVariants(workload, fixture).map(({ object, session }): PlainRequest => {
    const chosen = session === undefined ? undefined : sessions[session];
    if (session !== undefined && chosen === undefined) throw new Error(`no bench session ${session}`);
    const user = { username: chosen?.username ?? DEMO.username, token: chosen?.upstreamToken ?? token };
    switch (workload) {
      case 'W1':
      case 'W5':
        return {
          url: readUrl(emulatorUrl, user, 'getObject/', TYPES.loanType, object?._id),
          method: 'GET',
          headers: {},
        };
      case 'W2':
      case 'W2H':
        return {
          url: readUrl(emulatorUrl, user, 'getAll', TYPES.order, undefined, PAGE_SIZE),
          method: 'GET',
          headers: {},
        };
      case 'W4':
        return {
          url: `${emulatorUrl}/studio/jsonp/save?callback=cb`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            objectName: TYPES.loanType,
            data: SAVED_FIELDS,
            apiToken: user.token,
            applicationCode: DEMO.applicationCode,
            organizationCode: DEMO.organizationCode,
            callback: 'cb',
          }),
        };
    }
  });
}
