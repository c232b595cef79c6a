/**
 * Failures summed up in the log: in unit, one line per key per period after the first; end to end, a burst
 * of wrong passwords from one address writes one request line and, when the period ends (here: the gateway
 * closes), one summary line with the count, and no password; an outage's failed requests, one line per
 * operation and one summary.
 */
import { describe, expect, it } from 'vitest';
import { createPeriodSummary, type PeriodSummaryLine } from '../../src/observability/period-summary.ts';
import { useEmulator } from '../support/emulator-fixture.ts';
import { startLoggedGateway } from '../support/logged-gateway.ts';
import { LOAN_TYPES, LOGIN, loginDemo, postGraphql } from '../support/post-graphql.ts';

describe('createPeriodSummary', () => {
  it('should let the first failure of each network through, and sum up the rest per network, reason and period', () => {
    const written: PeriodSummaryLine[] = [];
    const log = createPeriodSummary({ write: (line) => written.push(line), maxKeys: 2 });
    expect(log.admit('203.0.113.1', 'rejected')).toBe(true);
    expect(log.admit('203.0.113.1', 'rejected')).toBe(false);
    expect(log.admit('203.0.113.1', 'blocked')).toBe(false);
    expect(log.admit('203.0.113.2', 'rejected')).toBe(true);
    // Past the bound of addresses: counted together, never remembered one by one.
    expect(log.admit('203.0.113.3', 'rejected')).toBe(false);
    expect(log.admit('203.0.113.4', 'login_share')).toBe(false);
    log.flush();
    expect(written).toEqual([
      { key: '203.0.113.1', count: 2, reasons: { rejected: 1, blocked: 1 }, periodSeconds: 60 },
      { key: undefined, count: 2, reasons: { rejected: 1, login_share: 1 }, periodSeconds: 60 },
    ]);
    // A new period: the first failure of a network is logged at once again.
    expect(log.admit('203.0.113.1', 'rejected')).toBe(true);
    log.close();
    expect(written).toHaveLength(2);
  });
});

describe('failed logins in the gateway log', () => {
  const { emulator } = useEmulator();

  it('should write one request line and one summary line for 40 wrong passwords from one address', async () => {
    const { gw, lines, saying } = await startLoggedGateway(emulator.url);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        postGraphql(gw.graphqlUrl, LOGIN, { username: `user-${i % 4}`, password: `secret-guess-${i}` }),
      ),
    );
    expect(answers.every((answer) => answer.errors?.[0]?.extensions?.code === 'UNAUTHENTICATED')).toBe(true);
    // The first failure's line says from which network, and why.
    expect(saying('graphql request')).toEqual([
      expect.objectContaining({
        clientNetwork: '127.0.0.1',
        loginFailure: 'rejected',
        outcome: 'UNAUTHENTICATED',
      }),
    ]);
    await gw.close();
    expect(saying('failed logins from one network')).toEqual([
      expect.objectContaining({
        count: 39,
        reasons: { rejected: 39 },
        periodSeconds: 60,
        clientNetwork: '127.0.0.1',
      }),
    ]);
    // No password, and no name tried (today's lines never carried them).
    expect(JSON.stringify(lines())).not.toContain('secret-guess');
    expect(JSON.stringify(lines())).not.toContain('user-');
  });

  it('should log a login block once, by the failure that started it, and the refusals after it as blocked', async () => {
    const { gw, lines, saying } = await startLoggedGateway(emulator.url, {
      LOG_REQUESTS: 'all',
      LOGIN_MAX_CONSECUTIVE_FAILURES: '3',
      LOGIN_BLOCK_SECONDS: '600',
    });
    for (let i = 0; i < 8; i++) {
      const answer = await postGraphql(gw.graphqlUrl, LOGIN, { username: 'demo', password: `wrong-${i}` });
      expect(answer.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
    await gw.close();
    expect(saying('login block started')).toEqual([
      expect.objectContaining({
        level: 40,
        clientNetwork: '127.0.0.1',
        limits: ['user_ip'],
        blockSeconds: 600,
      }),
    ]);
    // The third failure started it; the five after it were refused by it, without asking the upstream: the
    // first failure's line, then one summary of the rest.
    expect(saying('graphql request')).toEqual([
      expect.objectContaining({ clientNetwork: '127.0.0.1', loginFailure: 'rejected' }),
    ]);
    expect(saying('failed logins from one network')).toEqual([
      expect.objectContaining({
        clientNetwork: '127.0.0.1',
        count: 7,
        reasons: { rejected: 2, blocked: 5 },
      }),
    ]);
    expect(JSON.stringify(lines())).not.toContain('wrong-');
  });
});

describe('requests failed by an outage in the gateway log', () => {
  const { emulator } = useEmulator();

  it('should write the first failure of an operation, and sum up the rest in one line', async () => {
    const { gw, lines, saying } = await startLoggedGateway(emulator.url);
    const token = await loginDemo(gw.graphqlUrl);
    emulator.setFaults({ every: 1, mode: 'error500' });
    try {
      for (let i = 0; i < 30; i++) {
        const answer = await postGraphql(gw.graphqlUrl, LOAN_TYPES, {}, { authorization: `Bearer ${token}` });
        expect(answer.errors?.[0]?.extensions?.blame).toBe('upstream_health');
      }
    } finally {
      emulator.setFaults(undefined);
    }
    await gw.close();
    const failed = lines().filter((line) => line.msg === 'graphql request' && line.outcome !== 'ok');
    expect(failed).toHaveLength(1);
    expect(saying("graphql requests failed by the upstream's ill health")).toEqual([
      expect.objectContaining({ operation: 'LoanTypes', count: 29, periodSeconds: 60 }),
    ]);
  });
});
