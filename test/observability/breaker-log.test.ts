/**
 * An outage in the log: the breaker opening, then one line a period summing the half-open probes that failed
 * (a hung upstream flaps open and half-open every few seconds, two lines each time per replica before), and
 * its closing with how long it lasted.
 */
import { describe, expect, it, vi } from 'vitest';
import { logBreakerChanges } from '../../src/app/create-gateway-logger.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { logCapture } from '../support/log-capture.ts';

describe('logBreakerChanges', () => {
  it('should write an hour of flapping as an opening, a line a minute and a closing', () => {
    vi.useFakeTimers();
    try {
      const { stream, lines } = logCapture();
      const changed = logBreakerChanges(createLogger({ level: 'info', stream, levelFormat: 'label' }));
      changed('studio', 'closed');
      changed('studio', 'open');
      // An hour of a hung upstream: open 5 s, half-open while the probe waits 5 s, open again.
      for (let second = 0; second < 3600; second += 10) {
        changed('studio', 'half_open');
        changed('studio', 'open');
        vi.advanceTimersByTime(10_000);
      }
      changed('studio', 'half_open');
      changed('studio', 'closed');
      const messages = lines().map((line) => line.msg);
      expect(messages[0]).toBe('upstream circuit breaker open');
      expect(messages.at(-1)).toBe('upstream circuit breaker closed');
      // One summary a minute (60 of them), each counting six failed probes; nothing per transition.
      const summaries = lines().filter((line) => line.msg.startsWith('upstream circuit breaker still open'));
      expect(summaries).toHaveLength(60);
      expect(summaries.every((line) => line.failedProbes === 6)).toBe(true);
      expect(messages).toHaveLength(62);
      expect(lines().at(-1)).toMatchObject({ origin: 'studio', outageSeconds: 3600, failedProbes: 360 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('should say nothing of an origin that stays closed', () => {
    const { stream, lines } = logCapture();
    const changed = logBreakerChanges(createLogger({ level: 'info', stream, levelFormat: 'label' }));
    changed('studio', 'closed');
    expect(lines()).toEqual([]);
  });
});
