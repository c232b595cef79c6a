/**
 * The response cache against a model of the upstream (fast-check): random reads, writes through the
 * gateway's write handle and the passing of time, by accounts of two organizations, in either scope. Every
 * read answers what the upstream holds for the reader's organization at that moment: never another
 * organization's value, never a value from before a write through the gateway, whatever was cached.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CacheCaller } from '../../src/cache/cache-key.ts';
import type { CacheScope } from '../../src/config/cache-settings.ts';
import { createMemoryVersions } from '../../src/cache/cache-versions.ts';
import { invalidatingWrites } from '../../src/cache/invalidating-writes.ts';
import { RequestCache } from '../../src/cache/request-cache.ts';
import { createResponseCache } from '../../src/cache/response-cache.ts';
import type { UpstreamCredentials } from '../../src/upstream/client/types.ts';

const LOAN = 'com.example.LoanType';
const CALLERS: readonly CacheCaller[] = [
  { applicationCode: 'demo', organizationCode: 'acme', userKey: 'demo\u0000demo' },
  { applicationCode: 'demo', organizationCode: 'acme', userKey: 'demo\u0000admin' },
  { applicationCode: 'demo', organizationCode: 'globex', userKey: 'demo\u0000admin' },
  { applicationCode: 'demo', organizationCode: 'globex', userKey: 'demo\u0000ops' },
];
const IDS = ['a', 'b'];

type Command =
  | { kind: 'read'; caller: number; id: string }
  | { kind: 'write'; caller: number; id: string; value: number }
  | { kind: 'wait'; seconds: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    kind: fc.constant('read' as const),
    caller: fc.nat(CALLERS.length - 1),
    id: fc.constantFrom(...IDS),
  }),
  fc.record({
    kind: fc.constant('write' as const),
    caller: fc.nat(CALLERS.length - 1),
    id: fc.constantFrom(...IDS),
    value: fc.nat(1_000),
  }),
  fc.record({ kind: fc.constant('wait' as const), seconds: fc.constantFrom(1, 30, 61) }),
);

async function run(scope: CacheScope, commands: readonly Command[]): Promise<void> {
  let clock = 0;
  const cache = createResponseCache({
    policies: new Map([[LOAN, { maxAgeSeconds: 60, scope }]]),
    versions: createMemoryVersions(),
    maxBytes: 100_000,
    maxBytesPerUser: 100_000,
    maxBytesPerTenant: 100_000,
    staleIfErrorSeconds: 30,
    now: () => clock,
  });
  // The upstream: one value per organization and id.
  const stored = new Map<string, number>();
  const at = (organizationCode: string, id: string) => JSON.stringify([organizationCode, id]);
  const writes = invalidatingWrites(
    {
      loginJson: () => Promise.reject(new Error('not here')),
      loginForm: () => Promise.reject(new Error('not here')),
      save: () => Promise.reject(new Error('not here')),
      update: (credentials, _objectName, id, data) => {
        stored.set(at(credentials.organizationCode ?? '', id), data.value as number);
        return Promise.resolve({ savedObjectId: id, message: 'ok', updatedFields: data });
      },
    },
    cache,
  );
  for (const step of commands) {
    if (step.kind === 'wait') {
      clock += step.seconds * 1_000;
      continue;
    }
    const caller = CALLERS[step.caller] ?? CALLERS[0]!;
    const credentials: UpstreamCredentials = { username: caller.userKey, apiToken: 't', ...caller };
    if (step.kind === 'write') {
      await writes.update(credentials, LOAN, step.id, { value: step.value });
      continue;
    }
    const upstream = stored.get(at(caller.organizationCode, step.id)) ?? null;
    const answer = await new RequestCache(cache, caller).read('object', LOAN, step.id, () =>
      Promise.resolve({ _id: step.id, organizationCode: caller.organizationCode, value: upstream }),
    );
    expect(answer).toEqual({ _id: step.id, organizationCode: caller.organizationCode, value: upstream });
  }
}

describe('the response cache against a model of the upstream', () => {
  it.each(['PRIVATE', 'PUBLIC'] as const)('answers %s reads as the upstream holds them', async (scope) => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 60 }), (commands) =>
        run(scope, commands),
      ),
      { numRuns: 100 },
    );
  });
});
