/**
 * The response cache's keys: two reads share a key only when they are the same read of the same type at
 * the same version, and, in `PUBLIC` scope, of the same organization and application; in `PRIVATE` scope of
 * the same account too. Properties over random callers and arguments (fast-check).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cacheKey, type CacheCaller, type CacheKeyParts } from '../../src/cache/cache-key.ts';

const text = fc.string({ minLength: 0, maxLength: 12 });
const caller: fc.Arbitrary<CacheCaller> = fc.record({
  applicationCode: fc.constantFrom('demo', 'other', 'demo\u0000'),
  organizationCode: fc.constantFrom('acme', 'globex', 'acme ', 'ACME'),
  userKey: fc.constantFrom('demo\u0000u1', 'demo\u0000u2', 'other\u0000u1'),
});
const parts: fc.Arbitrary<CacheKeyParts> = fc.record({
  kind: fc.constantFrom('object', 'find', 'page', 'metadata'),
  objectName: fc.constantFrom('com.example.LoanType', 'com.example.Order'),
  scope: fc.constantFrom('PUBLIC', 'PRIVATE'),
  caller,
  version: fc.constantFrom('v1.a', 'v2.a', 'v1.b'),
  args: fc.oneof(
    text,
    fc.tuple(text, fc.integer({ min: 0, max: 3 })),
    fc.array(fc.tuple(text, text, text), { maxLength: 2 }),
  ),
});

/** Whether two reads may share an entry, by the rule the cache promises. */
function mayShare(a: CacheKeyParts, b: CacheKeyParts): boolean {
  const sameRead =
    a.kind === b.kind &&
    a.objectName === b.objectName &&
    a.scope === b.scope &&
    a.version === b.version &&
    JSON.stringify(a.args) === JSON.stringify(b.args);
  const sameTenant =
    a.caller.applicationCode === b.caller.applicationCode &&
    a.caller.organizationCode === b.caller.organizationCode;
  const sameOwner = a.scope === 'PUBLIC' ? sameTenant : sameTenant && a.caller.userKey === b.caller.userKey;
  return sameRead && sameOwner;
}

describe('cache keys', () => {
  it('are equal exactly when the two reads may share an entry', () => {
    fc.assert(
      fc.property(parts, parts, (a, b) => {
        expect(cacheKey(a) === cacheKey(b)).toBe(mayShare(a, b));
      }),
      { numRuns: 5_000 },
    );
  });

  it('never share between tenants or, PRIVATE, between accounts, whatever else is equal', () => {
    fc.assert(
      fc.property(parts, caller, (a, other) => {
        const b = { ...a, caller: other };
        const sameTenant =
          a.caller.applicationCode === other.applicationCode &&
          a.caller.organizationCode === other.organizationCode;
        if (!sameTenant) expect(cacheKey(b)).not.toBe(cacheKey(a));
        if (a.scope === 'PRIVATE' && a.caller.userKey !== other.userKey)
          expect(cacheKey(b)).not.toBe(cacheKey(a));
        if (a.scope === 'PUBLIC' && sameTenant) expect(cacheKey(b)).toBe(cacheKey(a));
      }),
      { numRuns: 5_000 },
    );
  });

  it('hold no account, organization or argument text', () => {
    const key = cacheKey({
      kind: 'object',
      objectName: 'com.example.LoanType',
      scope: 'PRIVATE',
      caller: { applicationCode: 'demo', organizationCode: 'acme', userKey: 'demo\u0000secret-account' },
      version: 'v',
      args: 'id-1',
    });
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
