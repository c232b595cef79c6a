/**
 * Upstream failures in the gateway's log: each says why (the kind and the gateway's words for
 * it), and an outage writes one line per operation and kind a minute, however many requests fail.
 */
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../support/emulator-fixture.ts';
import { startLoggedGateway } from '../support/logged-gateway.ts';
import { refusingUrl } from '../support/refusing-url.ts';
import { codesOf } from '../support/post-graphql.ts';

const LOGIN = 'mutation { login(username: "demo", password: "demo") { token } }';

describe('upstream failures in the log', () => {
  const { emulator } = useEmulator();

  it('should write the first refused call and the first breaker refusal with their reason, and sum up the rest', async () => {
    // A breaker that opens after a few failures, whoever they are from; every request logged.
    const { gw, saying } = await startLoggedGateway(await refusingUrl(), {
      UPSTREAM_BREAKER_MIN_CALLS: '5',
      UPSTREAM_BREAKER_MIN_SOURCES: '1',
      UPSTREAM_BREAKER_HALF_OPEN_MS: '600000',
    });
    const REQUESTS = 30;
    for (let i = 0; i < REQUESTS; i++) {
      expect(codesOf(await gw.post(LOGIN))).toEqual(['UPSTREAM_UNAVAILABLE']);
    }
    await gw.close();

    const failed = saying('upstream call failed');
    expect(failed).toEqual([
      expect.objectContaining({
        level: 40,
        operation: 'loginJson',
        reason: 'unavailable',
        detail: 'connection refused',
      }),
      expect.objectContaining({
        level: 40,
        operation: 'loginJson',
        reason: 'circuit_open',
        detail: 'not sent: the circuit breaker is open',
      }),
    ]);
    const summed = saying('upstream call failures, summed up');
    expect(summed).toEqual([
      expect.objectContaining({ operation: 'loginJson', reason: 'unavailable', periodSeconds: 60 }),
      expect.objectContaining({ operation: 'loginJson', reason: 'circuit_open', periodSeconds: 60 }),
    ]);
    // Every failed request is accounted for: its own line or a summary's count.
    const counted = summed.reduce((sum, line) => sum + Number(line.count), 0);
    expect(failed.length + counted).toBe(REQUESTS);
    // The requests alike: the first failed request's line, the others summed up by operation.
    expect(saying('graphql request')).toHaveLength(1);
    expect(saying("graphql requests failed by the upstream's ill health")).toEqual([
      expect.objectContaining({ operation: 'anonymous', count: REQUESTS - 1 }),
    ]);
  });

  it("should not log a caller's mistake (a wrong password the upstream refuses) as an upstream failure", async () => {
    const { gw, lines, saying } = await startLoggedGateway(emulator.url);
    const wrong = await gw.post('mutation { login(username: "demo", password: "wrong") { token } }');
    expect(codesOf(wrong)).toEqual(['UNAUTHENTICATED']);
    await gw.close();
    expect(lines().filter((line) => line.msg.startsWith('upstream call failure'))).toEqual([]);
    expect(saying('upstream call failed')).toEqual([]);
  });
});
