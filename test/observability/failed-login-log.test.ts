/**
 * Failed logins summed up in the log: in unit, one line per address per period after the first; end to
 * end, a burst of wrong passwords from one address writes one request line and, when the period ends (here:
 * the gateway closes), one summary line with the count, and no password.
 */
import { describe, expect, it } from 'vitest';
import { createFailedLoginLog, type FailedLoginSummary } from '../../src/observability/failed-login-log.ts';
import { startGateway } from '../support/gateway-harness.ts';
import { useEmulator } from '../support/emulator-fixture.ts';
import { logCapture } from '../support/log-capture.ts';
import { LOGIN, postGraphql } from '../support/post-graphql.ts';

describe('createFailedLoginLog', () => {
  it('should let the first failure of each address through, and sum up the rest per address and period', () => {
    const written: FailedLoginSummary[] = [];
    const log = createFailedLoginLog({ write: (line) => written.push(line), maxAddresses: 2 });
    expect(log.admit('203.0.113.1')).toBe(true);
    expect(log.admit('203.0.113.1')).toBe(false);
    expect(log.admit('203.0.113.1')).toBe(false);
    expect(log.admit('203.0.113.2')).toBe(true);
    // Past the bound of addresses: counted together, never remembered one by one.
    expect(log.admit('203.0.113.3')).toBe(false);
    expect(log.admit('203.0.113.4')).toBe(false);
    log.flush();
    expect(written).toEqual([
      { clientIp: '203.0.113.1', count: 2, periodSeconds: 60 },
      { clientIp: undefined, count: 2, periodSeconds: 60 },
    ]);
    // A new period: the first failure of an address is logged at once again.
    expect(log.admit('203.0.113.1')).toBe(true);
    log.close();
    expect(written).toHaveLength(2);
  });
});

describe('failed logins in the gateway log', () => {
  const { emulator } = useEmulator();

  it('should write one request line and one summary line for 40 wrong passwords from one address', async () => {
    const { stream, lines } = logCapture();
    const gw = await startGateway({
      upstreamUrl: emulator.url,
      logStream: stream,
      env: { LOG_LEVEL: 'info' },
    });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        postGraphql(gw.graphqlUrl, LOGIN, { username: `user-${i % 4}`, password: `secret-guess-${i}` }),
      ),
    );
    expect(answers.every((answer) => answer.errors?.[0]?.extensions?.code === 'UNAUTHENTICATED')).toBe(true);
    const requestLines = lines().filter((line) => line.msg === 'graphql request');
    expect(requestLines).toHaveLength(1);
    await gw.close();
    const summaries = lines().filter((line) => line.msg === 'failed logins from one address');
    expect(summaries).toEqual([
      expect.objectContaining({ count: 39, periodSeconds: 60, clientIp: '127.0.0.1' }),
    ]);
    expect(JSON.stringify(lines())).not.toContain('secret-guess');
  });
});
