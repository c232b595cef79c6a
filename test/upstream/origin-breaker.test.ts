/**
 * One origin's breaker states, driven synchronously by the resilience layer (`origin-breaker.ts`): the
 * rules cockatiel's policy kept, without a promise per call.
 */
import type { IBreaker } from 'cockatiel';
import { describe, expect, it } from 'vitest';
import { OriginBreaker, type BreakerState } from '../../src/upstream/resilience/origin-breaker.ts';

/** A window that is sick at the first failure. */
const sickAtOnce = (): IBreaker => ({ state: undefined, success: () => undefined, failure: () => true });

function breaker(halfOpenAfterMillis: number) {
  const states: BreakerState[] = [];
  return { breaker: new OriginBreaker(sickAtOnce(), halfOpenAfterMillis, (s) => states.push(s)), states };
}

describe('OriginBreaker', () => {
  it('should pass calls while closed and refuse them once a sick window opened it', () => {
    const { breaker: b, states } = breaker(60_000);
    expect(b.admit()).toBe('pass');
    b.failed(false);
    expect(b.state).toBe('open');
    expect(b.admit()).toBe('refuse');
    expect(b.isFailingFast(Date.now())).toBe(true);
    expect(states).toEqual(['open']);
  });

  it('should let one probe through when due, hold the others until it decides, and close on its success', async () => {
    const { breaker: b, states } = breaker(0);
    b.failed(false);
    expect(b.admit()).toBe('probe');
    const waiting = b.admit();
    expect(waiting).toBeInstanceOf(Promise);
    b.succeeded(true);
    await waiting;
    expect(b.admit()).toBe('pass');
    expect(states).toEqual(['open', 'half_open', 'closed']);
  });

  it.each([
    ['reopen when the probe finds the upstream sick', 'failed', 'open'],
    ['close when the probe fails in a way that says nothing of health', 'passed', 'closed'],
  ] as const)('should %s', (_outcome, probeEnds, state) => {
    const { breaker: b } = breaker(0);
    b.failed(false);
    expect(b.admit()).toBe('probe');
    // The probe ends sick (`failed(true)`), or in a way that says nothing of health (`passed(true)`).
    b[probeEnds](true);
    expect(b.state).toBe(state);
  });

  it('should hand the probe to the next caller when the probe was never sent', async () => {
    const { breaker: b } = breaker(0);
    b.failed(false);
    expect(b.admit()).toBe('probe');
    const waiting = b.admit();
    b.withdrawn(true);
    await waiting;
    expect(b.state).toBe('half_open');
    expect(b.admit()).toBe('probe');
  });
});
