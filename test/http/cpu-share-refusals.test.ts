/**
 * The wire form of the CPU share's refusals (`src/http/capacity/cpu-admission.ts`): answered at the HTTP
 * edge before Apollo sees the request, HTTP 429 `TOO_MANY_REQUESTS` / `cpu_share` with `Retry-After` and
 * blame `caller` for a caller's own line, 503 `GATEWAY_BUSY` / `cpu` with blame `gateway` when every line
 * together is full; a request admitted after waiting is answered as usual. The share here refuses, or
 * holds, whatever its accounts say (the policy itself: `test/unit/cpu-share.test.ts`).
 */
import { expect, it } from 'vitest';
import {
  CpuShareRefusal,
  type CpuShare,
  type CpuTicket,
  type CpuWait,
} from '../../src/http/capacity/cpu-share.ts';
import { useHarness } from '../support/gateway-harness.ts';
import { LOAN_TYPES, LOGIN } from '../support/post-graphql.ts';

const h = useHarness({ listen: false });

function shareThat(admit: () => CpuTicket | CpuWait): CpuShare {
  return { admit, charge: () => undefined, usedMillis: () => 0, counts: () => ({ running: 0, waiting: 0 }) };
}

async function withShare(share: CpuShare, test: () => Promise<void>): Promise<void> {
  const original = h.gateway.services.cpuShare;
  h.gateway.services.cpuShare = share;
  try {
    await test();
  } finally {
    h.gateway.services.cpuShare = original;
  }
}

async function demo(): Promise<Record<string, string>> {
  const answer = await h.post(LOGIN, { username: 'demo', password: 'demo-password' });
  const login = answer.data?.login as { token?: string } | undefined;
  if (login?.token === undefined) throw new Error(JSON.stringify(answer.errors));
  return { authorization: `Bearer ${login.token}` };
}

it('should answer 429 TOO_MANY_REQUESTS / cpu_share, the caller’s, when its line is full', async () => {
  const headers = await demo();
  await withShare(
    shareThat(() => {
      throw new CpuShareRefusal('share', 3);
    }),
    async () => {
      const refused = await h.post(LOAN_TYPES, {}, headers);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('3');
      expect(refused.errors).toEqual([
        {
          message: expect.stringMatching(/share of the gateway/) as string,
          extensions: { code: 'TOO_MANY_REQUESTS', reason: 'cpu_share', blame: 'caller', retryAfter: 3 },
        },
      ]);
      // Counted by its code and blame, like every other refusal, not as a bare HTTP status.
      const text = await h.gateway.metrics.registry.metrics();
      expect(text).toMatch(
        /gateway_graphql_operations_total\{[^}]*outcome="TOO_MANY_REQUESTS",blame="caller"\} [1-9]/,
      );
    },
  );
});

it('should answer 503 GATEWAY_BUSY / cpu, the gateway’s, when every line is full', async () => {
  await withShare(
    shareThat(() => {
      throw new CpuShareRefusal('full', 1);
    }),
    async () => {
      const refused = await h.post(LOGIN, { username: 'demo', password: 'demo-password' });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.errors?.[0]?.extensions).toEqual({
        code: 'GATEWAY_BUSY',
        reason: 'cpu',
        blame: 'gateway',
        retryAfter: 1,
      });
      const text = await h.gateway.metrics.registry.metrics();
      expect(text).toMatch(
        /gateway_graphql_operations_total\{[^}]*outcome="GATEWAY_BUSY",blame="gateway"\} [1-9]/,
      );
    },
  );
});

it('should answer a request that waited for its turn as usual, and give its ticket back once answered', async () => {
  const headers = await demo();
  let done = 0;
  let grant: (ticket: CpuTicket) => void = () => undefined;
  const ticket = new Promise<CpuTicket>((resolve) => {
    grant = resolve;
  });
  await withShare(
    shareThat(() => ({ ticket, cancel: () => undefined })),
    async () => {
      const answer = h.post(LOAN_TYPES, {}, headers);
      setTimeout(() => {
        grant({ done: () => done++ });
      }, 50);
      expect((await answer).errors).toBeUndefined();
    },
  );
  await expect.poll(() => done).toBe(1);
});
