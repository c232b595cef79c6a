/**
 * The revocation sync (`src/auth/redis/revocation-sync.ts`) against a stand-in guard that records what it is
 * asked: what Redis missed is written once it takes writes again, an emptied Redis (its marker gone) gets
 * the whole list, and an attempt made while Redis was bypassed does not stop the later ones.
 */
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { RedisGuard, RedisStatus } from '../../src/auth/redis/redis-guard.ts';
import type { UnexpiredEntry } from '../../src/auth/revocation-ledger.ts';
import { createRevocationSync } from '../../src/auth/redis/revocation-sync.ts';
import { createSessionRevocations } from '../../src/auth/session-revocations.ts';

/** A Redis of plain keys behind a guard whose status the test sets; `down` makes every call fail. */
function standIn() {
  const keys = new Map<string, string>();
  const state = { status: 'up' as RedisStatus, down: false, calls: 0 };
  const returns: (() => void)[] = [];
  const client = {
    pexpire: (key: string) => Promise.resolve(keys.has(key) ? 1 : 0),
    get: (key: string) => Promise.resolve(keys.get(key) ?? null),
    mget: (...names: string[]) => Promise.resolve(names.map((key) => keys.get(key) ?? null)),
    del: (...names: string[]) => Promise.resolve(names.filter((key) => keys.delete(key)).length),
    // The cut-off script (`EVAL`): raises the value, never lowers it (expiries are not modelled).
    call: (command: string, _script: string, _count: number, key: string, cutOff: number) => {
      if (command !== 'EVAL') return Promise.reject(new Error(`unexpected ${command}`));
      keys.set(key, String(Math.max(cutOff, Number(keys.get(key) ?? 0))));
      return Promise.resolve(1);
    },
    set: (key: string, value: string) => {
      keys.set(key, value);
      return Promise.resolve('OK');
    },
    pipeline() {
      const queued: [string, string][] = [];
      const pipeline = {
        set(key: string, value: string) {
          queued.push([key, value]);
          return pipeline;
        },
        exec: () => {
          for (const [key, value] of queued) keys.set(key, value);
          return Promise.resolve(queued.map(() => [null, 'OK']));
        },
      };
      return pipeline;
    },
  } as unknown as Redis;
  const guard: RedisGuard = {
    client,
    run(command) {
      state.calls += 1;
      if (state.down || state.status === 'bypassed') return Promise.reject(new Error('redis bypassed'));
      return command(client);
    },
    status: () => state.status,
    isUp: () => state.status !== 'bypassed' && !state.down,
    bypasses: () => 0,
    fallbacks: () => 0,
    onReturn: (listener) => returns.push(listener),
    close: () => Promise.resolve(),
  };
  const comeBack = () => {
    for (const listener of returns) listener();
  };
  return { keys, state, guard, comeBack };
}

const HOUR = 3600;
const entry = (tokenId: string): UnexpiredEntry<'revoked'> => ({
  tokenId,
  reason: 'revoked',
  expiresAtSeconds: Date.now() / 1000 + HOUR,
});

const tokensIn = (keys: Map<string, string>) =>
  [...keys.keys()].filter((key) => key.startsWith('dead:')).sort();

describe('the revocation sync', () => {
  it('should write what Redis missed once it is back, even when it was asked while Redis was bypassed', async () => {
    const { keys, state, guard, comeBack } = standIn();
    const list = [entry('a')];
    const sync = createRevocationSync({ guard, keyPrefix: 'dead', entries: () => list, now: Date.now });
    await sync.sync();

    state.status = 'bypassed';
    list.push(entry('b'));
    await sync.write('b', 'revoked', HOUR * 1000);
    expect(sync.unshared()).toBe(1);
    // Asked while bypassed: nothing to do yet, and nothing must stop the next attempt.
    await sync.sync();
    await sync.sync();

    state.status = 'up';
    comeBack();
    await sync.sync();
    expect(tokensIn(keys)).toEqual(['dead:a', 'dead:b']);
    expect(sync.unshared()).toBe(0);
    sync.close();
  });

  it('should write the whole list into an emptied Redis (its marker gone), and nothing more while it holds', async () => {
    const { keys, state, guard } = standIn();
    const list = Array.from({ length: 1_234 }, (_, i) => entry(`t${i}`));
    const reports: unknown[] = [];
    const sync = createRevocationSync({
      guard,
      keyPrefix: 'dead',
      entries: () => list,
      now: Date.now,
      onRefill: (report) => reports.push(report),
    });
    await sync.sync();
    expect(tokensIn(keys)).toHaveLength(1_234);

    keys.clear();
    await sync.sync();
    expect(tokensIn(keys)).toHaveLength(1_234);
    expect(reports).toMatchObject([
      { cause: 'redis_emptied', written: 1_234 },
      { cause: 'redis_emptied', written: 1_234 },
    ]);

    const before = state.calls;
    await sync.sync();
    // The marker is there: one PEXPIRE, no writes.
    expect(state.calls - before).toBe(1);
    sync.close();
  });
});

describe('revocations folded while Redis was away', () => {
  it('should reach the other replicas once Redis is back, though this replica folded them into a cut-off', async () => {
    const { state, guard, comeBack } = standIn();
    const replica = (now: () => number) =>
      createSessionRevocations({ redis: guard, maxEntriesPerUser: 2, maxLocalEntries: 1_000, now });
    const a = replica(Date.now);
    const b = replica(Date.now);
    const issuedAtSeconds = Math.floor(Date.now() / 1000) - 60;
    const session = (tokenId: string, secondsLater: number) => ({
      applicationCode: 'demo',
      username: 'shared-kiosk',
      tokenId,
      issuedAtSeconds: issuedAtSeconds + secondsLater,
      expiresAtSeconds: issuedAtSeconds + HOUR,
    });
    const stolen = session('stolen', 0);

    state.down = true;
    // The user logs out three sessions on replica A while Redis is away: the third folds the first two.
    await a.revoke(stolen, 'revoked');
    await a.revoke(session('second', 1), 'revoked');
    await a.revoke(session('third', 2), 'revoked');
    expect(await a.reasonOf(stolen)).toBe('revoked');
    expect(a.unshared()).toBe(3);

    state.down = false;
    comeBack();
    await new Promise(setImmediate);
    expect(a.unshared()).toBe(0);
    // Replica B knows only what Redis holds: the logged-out token must be dead there too.
    expect(await b.reasonOf(stolen)).toBe('revoked');
    expect(await b.reasonOf(session('second', 1))).toBe('revoked');
    a.close();
    b.close();
  });

  it('should hold no more of one user in Redis than its list does: a fold shares the cut-off and deletes what it replaced', async () => {
    const { keys, guard } = standIn();
    const replica = () =>
      createSessionRevocations({
        redis: guard,
        keyPrefix: 'dead',
        maxEntriesPerUser: 3,
        maxLocalEntries: 1_000,
      });
    const a = replica();
    const b = replica();
    const start = Math.floor(Date.now() / 1000) - 600;
    const session = (tokenId: string, user: string, secondsLater: number) => ({
      applicationCode: 'demo',
      username: user,
      tokenId,
      issuedAtSeconds: start + secondsLater,
      expiresAtSeconds: start + HOUR,
    });
    // One account logs out 40 sessions on A, each issued a second after the last.
    const logouts = Array.from({ length: 40 }, (_, i) => session(`t${i}`, 'busy', i));
    for (const one of logouts) await a.revoke(one, 'revoked');
    const other = session('other', 'someone-else', 0);
    await a.revoke(other, 'revoked');
    // Redis holds at most the per-user share of its single entries, plus its cut-off.
    expect(tokensIn(keys).filter((key) => key.startsWith('dead:t')).length).toBeLessThanOrEqual(3);
    expect([...keys.keys()].filter((key) => key.startsWith('dead_user:'))).toHaveLength(1);
    // Every logged-out token is dead on the other replica, which knows only Redis; another user's too.
    for (const one of logouts) expect(await b.reasonOf(one)).toBe('revoked');
    expect(await b.reasonOf(other)).toBe('revoked');
    // A token of that user issued after its newest logout, and another user's live one, are not.
    expect(await b.reasonOf(session('later', 'busy', 41))).toBeUndefined();
    expect(await b.reasonOf(session('alive', 'someone-else', 1))).toBeUndefined();
    a.close();
    b.close();
  });
});
