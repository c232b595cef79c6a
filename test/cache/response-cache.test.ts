/**
 * The response cache's store and a request's view of it: fresh hits, misses stored, versions replaced by
 * writes, shares per account and organization, the LRU bound, stale entries only while the upstream fails
 * and never past their stale age, and a written type never read from the cache for the rest of its request.
 */
import { describe, expect, it } from 'vitest';
import type { CachePolicy } from '../../src/config/cache-settings.ts';
import {
  cachePoliciesOf,
  cachePolicyOverrides,
  readCachePolicyEntry,
} from '../../src/config/cache-settings.ts';
import { createMemoryVersions } from '../../src/cache/cache-versions.ts';
import { emptyOnHangup } from '../../src/cache/empty-on-hangup.ts';
import { RequestCache } from '../../src/cache/request-cache.ts';
import { createResponseCache, type CacheEvent, type ResponseCache } from '../../src/cache/response-cache.ts';
import type { SharedEntries, SharedEntry } from '../../src/cache/shared-entries.ts';
import type { CacheCaller } from '../../src/cache/cache-key.ts';
import { UpstreamError } from '../../src/errors/upstream-error.ts';
import { parseExactJson } from '../../src/upstream/dialect/exact-json.ts';

const LOAN = 'com.example.LoanType';
const ORDER = 'com.example.Order';
const alice: CacheCaller = { applicationCode: 'demo', organizationCode: 'acme', userKey: 'demo\u0000alice' };
const bob: CacheCaller = { ...alice, userKey: 'demo\u0000bob' };
const globexAlice: CacheCaller = { ...alice, organizationCode: 'globex' };

/** A clock the test moves by hand, from `startMillis`. */
function handClock(startMillis: number) {
  let millis = startMillis;
  return {
    now: () => millis,
    advance: (seconds: number) => {
      millis += seconds * 1_000;
    },
  };
}

/** Reads through a request's view of a cache, each one that reaches the upstream counted. */
function countedReads() {
  let upstreamReads = 0;
  const read = (cache: ResponseCache, who: CacheCaller, objectName: string, id: string, value: unknown) =>
    new RequestCache(cache, who).read('object', objectName, id, () => {
      upstreamReads += 1;
      return Promise.resolve(value);
    });
  return { read, upstreamReads: () => upstreamReads };
}

function setup(
  policies: [string, CachePolicy][],
  options: { maxBytes?: number; perUser?: number; perTenant?: number; stale?: number } = {},
) {
  const clock = handClock(1_000_000);
  const events: [CacheEvent, string][] = [];
  const versions = createMemoryVersions();
  const cache = createResponseCache({
    policies: new Map(policies),
    versions,
    maxBytes: options.maxBytes ?? 1_000_000,
    maxBytesPerUser: options.perUser ?? 1_000_000,
    maxBytesPerTenant: options.perTenant ?? 1_000_000,
    staleIfErrorSeconds: options.stale ?? 30,
    onEvent: (event, objectName) => events.push([event, objectName]),
    now: clock.now,
  });
  const { read, upstreamReads } = countedReads();
  return {
    cache,
    versions,
    events,
    read: (
      who: CacheCaller,
      objectName: string,
      id: string,
      value: unknown = { _id: id, n: upstreamReads() + 1 },
    ) => read(cache, who, objectName, id, value),
    upstreamReads,
    advance: clock.advance,
  };
}

const privateLoan: [string, CachePolicy] = [LOAN, { maxAgeSeconds: 60, scope: 'PRIVATE' }];
const publicLoan: [string, CachePolicy] = [LOAN, { maxAgeSeconds: 60, scope: 'PUBLIC' }];

describe('the response cache', () => {
  it('answers a second read from memory, as a copy of its own', async () => {
    const t = setup([privateLoan]);
    const first = await t.read(alice, LOAN, 'a');
    const second = await t.read(alice, LOAN, 'a');
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(t.upstreamReads()).toBe(1);
    expect(t.events.map(([e]) => e)).toEqual(['miss', 'hit']);
  });

  it.each([
    ['never caches a type without a policy', [alice, alice], ORDER],
    [
      'keeps PRIVATE entries to their account and every entry to its organization',
      [alice, bob, globexAlice],
      LOAN,
    ],
  ])('%s: each read goes upstream', async (_name, readers, objectName) => {
    const t = setup([privateLoan]);
    for (const who of readers) await t.read(who, objectName, 'a');
    expect(t.upstreamReads()).toBe(readers.length);
  });

  it('shares PUBLIC entries within the organization and application only', async () => {
    const t = setup([publicLoan]);
    await t.read(alice, LOAN, 'a');
    // Not before the upstream let bob read in acme once: his session's organization is only what he asked for.
    await t.read(bob, LOAN, 'a');
    expect(t.upstreamReads()).toBe(2);
    await t.read(bob, LOAN, 'a');
    await t.read(alice, LOAN, 'a');
    expect(t.upstreamReads()).toBe(2);
    await t.read(globexAlice, LOAN, 'a');
    await t.read({ ...alice, applicationCode: 'other' }, LOAN, 'a');
    expect(t.upstreamReads()).toBe(4);
  });

  it('misses once maxAge has passed', async () => {
    const t = setup([privateLoan]);
    await t.read(alice, LOAN, 'a');
    t.advance(61);
    await t.read(alice, LOAN, 'a');
    expect(t.upstreamReads()).toBe(2);
  });

  it("misses after a write of the type in the reader's organization, or of unknown organization", async () => {
    const t = setup([privateLoan]);
    await t.read(alice, LOAN, 'a');
    await t.versions.replace('globex', LOAN);
    await t.read(alice, LOAN, 'a');
    expect(t.upstreamReads()).toBe(1);
    await t.versions.replace('acme', LOAN);
    await t.read(alice, LOAN, 'a');
    expect(t.upstreamReads()).toBe(2);
    await t.versions.replace(undefined, LOAN);
    await t.read(alice, LOAN, 'a');
    expect(t.upstreamReads()).toBe(3);
  });

  it('neither reads nor stores a type its request wrote', async () => {
    const t = setup([privateLoan]);
    await t.read(alice, LOAN, 'a');
    const request = new RequestCache(t.cache, alice);
    request.bypass(LOAN);
    expect(request.covers(LOAN)).toBe(false);
    const value = await request.read('object', LOAN, 'a', () => Promise.resolve({ _id: 'a', n: 'fresh' }));
    expect(value).toEqual({ _id: 'a', n: 'fresh' });
    await t.read(alice, LOAN, 'a');
    expect(t.upstreamReads()).toBe(1);
  });

  it("says how long a request's answer stays fresh: the least freshness left among its reads", async () => {
    const shortOrder: [string, CachePolicy] = [ORDER, { maxAgeSeconds: 20, scope: 'PRIVATE' }];
    const t = setup([privateLoan, shortOrder]);
    const load = () => Promise.resolve({ _id: 'a' });
    // Nothing read: no freshness to tell.
    expect(new RequestCache(t.cache, alice).freshSeconds()).toBeUndefined();
    const first = new RequestCache(t.cache, alice);
    await first.read('object', LOAN, 'a', load);
    expect(first.freshSeconds()).toBe(60);
    // A hit 45 s old has 15 s left; the other type's 20 s read upstream leaves the least at 15.
    t.advance(45);
    const later = new RequestCache(t.cache, alice);
    await later.read('object', LOAN, 'a', load);
    expect(later.freshSeconds()).toBe(15);
    await later.read('object', ORDER, 'a', load);
    expect(later.freshSeconds()).toBe(15);
    // A read past every policy leaves none.
    later.readPast();
    expect(later.freshSeconds()).toBeUndefined();
    // Nor does a type its request wrote, nor a type without a policy.
    const wrote = new RequestCache(t.cache, alice);
    wrote.bypass(LOAN);
    await wrote.read('object', LOAN, 'a', load);
    expect(wrote.freshSeconds()).toBeUndefined();
    const undeclared = new RequestCache(t.cache, alice);
    await undeclared.read('object', 'com.example.Undeclared', 'a', load);
    expect(undeclared.freshSeconds()).toBeUndefined();
  });

  it('tells no freshness for an answer holding a stale entry', async () => {
    const t = setup([privateLoan], { stale: 30 });
    const down = new UpstreamError('unavailable', 'connection refused', { operation: 'getAll' });
    await t.read(alice, LOAN, 'a');
    t.advance(70);
    const request = new RequestCache(t.cache, alice);
    await request.read('object', LOAN, 'a', () => Promise.reject(down));
    expect(request.staleReport()).toBeDefined();
    expect(request.freshSeconds()).toBeUndefined();
  });

  it('serves a stale entry only while the upstream fails, and never past its stale age', async () => {
    const t = setup([privateLoan], { stale: 30 });
    const down = new UpstreamError('unavailable', 'connection refused', { operation: 'getAll' });
    await t.read(alice, LOAN, 'a', { _id: 'a', n: 1 });
    t.advance(70);
    const request = new RequestCache(t.cache, alice);
    await expect(request.read('object', LOAN, 'a', () => Promise.reject(down))).resolves.toEqual({
      _id: 'a',
      n: 1,
    });
    expect(request.staleReport()).toEqual({ stale: true, ageSeconds: 70 });
    // A caller's mistake is its own answer, stale entry or not.
    const mistake = new UpstreamError('invalid_input', 'bad id', { operation: 'getAll' });
    await expect(
      new RequestCache(t.cache, alice).read('object', LOAN, 'a', () => Promise.reject(mistake)),
    ).rejects.toBe(mistake);
    t.advance(21);
    await expect(
      new RequestCache(t.cache, alice).read('object', LOAN, 'a', () => Promise.reject(down)),
    ).rejects.toBe(down);
  });

  it('never serves a stale entry of an older version', async () => {
    const t = setup([privateLoan], { stale: 30 });
    const down = new UpstreamError('unavailable', 'connection refused', { operation: 'getAll' });
    await t.read(alice, LOAN, 'a');
    await t.versions.replace('acme', LOAN);
    t.advance(70);
    await expect(
      new RequestCache(t.cache, alice).read('object', LOAN, 'a', () => Promise.reject(down)),
    ).rejects.toBe(down);
  });

  it("refuses to store past an account's share, and past an organization's", async () => {
    const big = { _id: 'x', text: 'y'.repeat(400) };
    const t = setup([privateLoan], { perUser: 1_000, perTenant: 1_500 });
    await t.read(alice, LOAN, 'a', big);
    await t.read(alice, LOAN, 'b', big);
    await t.read(alice, LOAN, 'c', big);
    expect(t.events.filter(([e]) => e === 'refused')).toHaveLength(1);
    await t.read(bob, LOAN, 'a', big);
    await t.read(bob, LOAN, 'b', big);
    expect(t.events.filter(([e]) => e === 'refused')).toHaveLength(2);
    // Another organization has its own share (the account's share is its own wherever it reads).
    await t.read({ ...globexAlice, userKey: 'demo\u0000carol' }, LOAN, 'a', big);
    expect(t.events.filter(([e]) => e === 'refused')).toHaveLength(2);
    expect(t.cache.size()).toBeLessThanOrEqual(1_500 + 1_000);
  });

  it('evicts the least recently used past its bound, and counts it', async () => {
    const big = { _id: 'x', text: 'y'.repeat(400) };
    const t = setup([privateLoan], { maxBytes: 1_000 });
    await t.read(alice, LOAN, 'a', big);
    await t.read(alice, LOAN, 'b', big);
    await t.read(alice, LOAN, 'c', big);
    expect(t.events.filter(([e]) => e === 'evicted')).toHaveLength(1);
    expect(t.cache.size()).toBeLessThanOrEqual(1_000);
    expect(t.cache.bytesByType().get(LOAN)).toBe(t.cache.size());
    t.cache.clear();
    expect(t.cache.size()).toBe(0);
    expect(t.cache.bytesByType().size).toBe(0);
  });

  it('keeps numbers beyond a double digit for digit', async () => {
    const t = setup([privateLoan]);
    const exact = parseExactJson('{"_id":"a","big":9007199254740993}');
    await t.read(alice, LOAN, 'a', exact);
    const hit = await t.read(alice, LOAN, 'a');
    expect(JSON.stringify(hit)).toBe('{"_id":"a","big":9007199254740993}');
  });
});

describe('cache policies', () => {
  it('take the SDL, then CACHE_POLICIES over it (0 removes)', () => {
    const overrides = cachePolicyOverrides([
      'com.example.Order=30:PUBLIC',
      'com.example.LoanType=0',
      'com.example.Customer=5',
    ]);
    const policies = cachePoliciesOf(
      [
        [LOAN, { maxAgeSeconds: 60, scope: 'PUBLIC' }],
        ['com.example.Other', undefined],
      ],
      overrides,
    );
    expect(Object.fromEntries(policies)).toEqual({
      'com.example.Order': { maxAgeSeconds: 30, scope: 'PUBLIC' },
      'com.example.Customer': { maxAgeSeconds: 5, scope: 'PRIVATE' },
    });
  });

  it('refuse a malformed entry with its fix', () => {
    expect(readCachePolicyEntry('com.example.Order=30:SHARED')).toHaveProperty('problem');
    expect(readCachePolicyEntry('com.example.Order')).toHaveProperty('problem');
    expect(readCachePolicyEntry('com.example.Order=999999')).toHaveProperty('problem');
  });
});

describe('SIGHUP', () => {
  it("empties the replica's cache, and says how much it held", async () => {
    const t = setup([privateLoan]);
    await t.read(alice, LOAN, 'a');
    const lines: [object, string][] = [];
    const stop = emptyOnHangup(t.cache, { info: (object, message) => lines.push([object, message]) });
    try {
      process.emit('SIGHUP', 'SIGHUP');
    } finally {
      stop();
    }
    expect(t.cache.size()).toBe(0);
    expect(lines).toEqual([
      [
        { event: 'cache_cleared', heldChars: expect.any(Number) as unknown },
        'response cache emptied (SIGHUP)',
      ],
    ]);
    await t.read(alice, LOAN, 'a');
    expect(t.upstreamReads()).toBe(2);
  });
});

describe('entries shared between replicas', () => {
  /** Two replicas: their own memory, one set of versions and one shared store (Redis's part, faked). */
  function replicas(sharedLimit: number) {
    const wall = handClock(1_700_000_000_000);
    const held = new Map<string, SharedEntry>();
    const entries: SharedEntries = {
      get: (key) => Promise.resolve(held.get(key)),
      set: (key, entry, _ttl, shares) => {
        const all = shares.find((share) => share.name === 'all');
        if (entry.text.length > (all?.limit ?? 0)) return Promise.resolve(false);
        held.set(key, entry);
        return Promise.resolve(true);
      },
    };
    const versions = createMemoryVersions();
    const replica = () =>
      createResponseCache({
        policies: new Map([privateLoan]),
        versions,
        maxBytes: 1_000_000,
        maxBytesPerUser: 1_000_000,
        maxBytesPerTenant: 1_000_000,
        staleIfErrorSeconds: 30,
        shared: { entries, maxBytes: sharedLimit },
        wallNow: wall.now,
      });
    const { read, upstreamReads } = countedReads();
    return {
      a: replica(),
      b: replica(),
      versions,
      read: (cache: ResponseCache, who: CacheCaller, value: unknown) => read(cache, who, LOAN, 'a', value),
      held,
      upstreamReads,
      advanceWall: wall.advance,
    };
  }

  it('answers a read on B from what A stored, for the same account only', async () => {
    const t = replicas(1_000_000);
    await t.read(t.a, alice, { n: 1 });
    await Promise.resolve();
    expect(await t.read(t.b, alice, { n: 2 })).toEqual({ n: 1 });
    expect(t.upstreamReads()).toBe(1);
    expect(await t.read(t.b, bob, { n: 3 })).toEqual({ n: 3 });
    expect(t.upstreamReads()).toBe(2);
  });

  it('misses on B after a write replaced the version, and when the shared entry is too old', async () => {
    const t = replicas(1_000_000);
    await t.read(t.a, alice, { n: 1 });
    await t.versions.replace('acme', LOAN);
    expect(await t.read(t.b, alice, { n: 2 })).toEqual({ n: 2 });
    const c = replicas(1_000_000);
    await c.read(c.a, alice, { n: 1 });
    c.advanceWall(91);
    expect(await c.read(c.b, alice, { n: 2 })).toEqual({ n: 2 });
  });

  it('shares nothing past its bound', async () => {
    const t = replicas(10);
    await t.read(t.a, alice, { n: 1, text: 'longer than ten characters' });
    expect(t.held.size).toBe(0);
    await t.read(t.b, alice, { n: 2 });
    expect(t.upstreamReads()).toBe(2);
  });
});
