/**
 * The benchmark's peers answer every workload correctly, with the upstream calls the README claims, and
 * the bench's body check rejects wrong answers: a benchmark whose peers answer errors fast, or whose check
 * accepts anything, measures nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpBench } from '../bench-setup.ts';
import { SESSIONS } from '../bench-users.ts';
import { createBodyCheck } from '../load-job.ts';
import { preflight } from '../measure.ts';
import { PEER_IDS, startPeer } from '../peer-registry.ts';
import type { PeerEnvironment, PeerId, RunningPeer } from '../peer-registry.ts';
import { stopProcess } from '../processes.ts';
import type { BenchProcess } from '../processes.ts';
import { WORKLOAD_IDS, WORKLOADS } from '../workloads.ts';
import type { WorkloadId } from '../workloads.ts';

// P4-all: the gateway with every feature swapped for its bench stand-in (`bench/features/`) still answers
// every workload right, so the feature-cost mode measures a gateway that works.
const PEERS: PeerId[] = [...PEER_IDS.filter((id) => id !== 'PB'), 'P4-all'];

let env: PeerEnvironment;
let logDir = '';
const started: BenchProcess[] = [];
const peers = new Map<PeerId, RunningPeer>();

beforeAll(async () => {
  logDir = mkdtempSync(join(tmpdir(), 'bench-test-'));
  env = await setUpBench(logDir, (emulator) => started.push(emulator), {});
  const running = await Promise.all(PEERS.map((id) => startPeer(id, env)));
  for (const peer of running) {
    peers.set(peer.id, peer);
    if (peer.process !== env.emulator) started.push(peer.process);
  }
});

afterAll(async () => {
  await Promise.all(started.map((child) => stopProcess(child)));
  if (logDir !== '') rmSync(logDir, { recursive: true, force: true });
});

/** Upstream calls per request with one client, by peer and workload, as bench/README.md states them. */
function expectedCalls(peer: PeerId, workload: WorkloadId): number | 'cached' | undefined {
  // The gateway answers W1's and W5's loan types from its response cache (`schema/objects/` declares them).
  if (peer.startsWith('P4') && (workload === 'W1' || workload === 'W5')) return 'cached';
  // F1C answers every read from memory after its first call.
  if (peer === 'F1C' && workload !== 'W4') return 'cached';
  // The gateway reads every write back, to compare what the upstream stored with what was sent.
  if (workload === 'W4') return peer.startsWith('P4') ? 2 : 1;
  if (workload !== 'W3' && workload !== 'W3T') return 1;
  if (peer === 'P2') return 51;
  if (peer === 'P3') return undefined; // one plus the distinct customers of the page: checked as a range
  return 2;
}

describe('bench peers', () => {
  it.each(PEERS)(
    'should answer every workload correctly with the expected upstream calls (%s)',
    async (id) => {
      const peer = peers.get(id)!;
      for (const workload of WORKLOAD_IDS) {
        const requests = peer.requests(workload);
        if (requests === undefined) continue;
        const { problems, sequentialCallsPerRequest } = await preflight(
          peer,
          workload,
          requests,
          env.fixture,
          env.emulatorUrl,
        );
        expect(problems, `${id} ${workload}`).toEqual([]);
        const calls = expectedCalls(id, workload);
        if (calls === 'cached') {
          expect(sequentialCallsPerRequest, `${id} ${workload}`).toBeLessThanOrEqual(1);
        } else if (calls === undefined) {
          expect(sequentialCallsPerRequest).toBeGreaterThanOrEqual(2);
          expect(sequentialCallsPerRequest).toBeLessThanOrEqual(51);
        } else {
          expect(sequentialCallsPerRequest, `${id} ${workload}`).toBe(calls);
        }
      }
    },
  );

  it.each(['P0', 'P1', 'F1', 'P4'] as const)(
    'should send each connection of W1–W4 as its own user, and W5 and W2H as one (%s)',
    (id) => {
      const peer = peers.get(id)!;
      const identity = (request: { url: string; headers: Record<string, string>; body?: string }) =>
        request.headers.authorization ??
        request.headers['x-upstream-username'] ??
        new URL(request.url).searchParams.get('username') ??
        (JSON.parse(request.body ?? '{}') as { apiToken?: string }).apiToken;
      for (const workload of WORKLOAD_IDS) {
        const requests = peer.requests(workload);
        if (requests === undefined) continue; // P0 has no W3
        const users = new Set(requests.map(identity));
        if (WORKLOADS[workload].sessions === 'one') expect(users.size, workload).toBe(1);
        else expect(users.size, `${id} ${workload}`).toBe(SESSIONS);
      }
      expect(SESSIONS).toBeGreaterThanOrEqual(32);
      expect(WORKLOADS.W1.connections).toBe(SESSIONS);
    },
  );

  // `--gc`: the preload rides along with each start's own Node options (P4's are npm start's) and answers.
  it.each(['F1', 'P4'] as const)(
    'should count the collections and allocation of a peer started with --gc (%s)',
    async (id) => {
      const peer = await startPeer(id, { ...env, gc: true });
      started.push(peer.process);
      const probe = peer.gc!;
      const before = await probe.snapshot();
      const [request] = peer.requests('W1')!;
      for (let index = 0; index < 200; index++) {
        const response = await fetch(request!.url, {
          method: 'POST',
          headers: request!.headers,
          body: request!.body!,
        });
        expect(response.status).toBe(200);
        await response.text();
      }
      const after = await probe.snapshot();
      // Any GraphQL request allocates well over a kilobyte (parse, validate, execute, the answer).
      expect(after.allocatedBytes - before.allocatedBytes).toBeGreaterThan(200 * 1024);
      expect(after.seq).toBeGreaterThan(before.seq);
      expect(peer.process.exited).toBeUndefined();
    },
    60_000,
  );

  it('should not count P0 (the emulator all peers share)', async () => {
    expect((await startPeer('P0', { ...env, gc: true })).gc).toBeUndefined();
  });

  it('should send P4D every workload as a documentId, never as text', () => {
    const peer = peers.get('P4D')!;
    for (const workload of WORKLOAD_IDS) {
      for (const request of peer.requests(workload) ?? []) {
        const body = JSON.parse(request.body ?? '{}') as { query?: unknown; documentId?: unknown };
        expect(body.query).toBeUndefined();
        expect(body.documentId).toMatch(/^sha256:[0-9a-f]{64}$/);
      }
    }
  });

  it('should count a wrong object, a null object or an error as a mismatch', async () => {
    const peer = peers.get('P1')!;
    const { check } = await preflight(peer, 'W1', peer.requests('W1')!, env.fixture, env.emulatorUrl);
    const hot = peer.requests('W5')![0]!;
    const hotBody = await (
      await fetch(hot.url, { method: 'POST', headers: hot.headers, body: hot.body })
    ).text();
    const verify = createBodyCheck(check);
    expect(verify(hotBody)).toBe(false);
    expect(verify('{"data":{"object":null}}')).toBe(false);
    expect(verify('{"data":null,"errors":[{"message":"upstream error"}]}')).toBe(false);
  });

  it('should accept a save only when it names the new id', () => {
    const graphql = createBodyCheck({ kind: 'saved', jsonp: false });
    expect(graphql('{"data":{"saveObject":{"id":"6b03373f18053ff48dd32667"}}}')).toBe(true);
    expect(graphql('{"data":{"saveObject":{"id":""}}}')).toBe(false);
    expect(graphql('{"data":null,"errors":[{"message":"x"}]}')).toBe(false);
    const jsonp = createBodyCheck({ kind: 'saved', jsonp: true });
    expect(jsonp('cb({"status":"success","message":"saved","savedObjectId":"abc"});')).toBe(true);
    expect(jsonp('cb({"status":"error","message":"bad token","error_code":"SAVE_ERR_401"});')).toBe(false);
  });
});
