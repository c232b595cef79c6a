/**
 * Each caller's share of the gateway's own work (`src/http/capacity/cpu-share.ts`), on a driven clock:
 * the loop's busy time is split between the requests running, a caller alone is never held back, a caller
 * over its share waits while another is served at once, and the lines are bounded.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import {
  CpuShareRefusal,
  createCpuShare,
  isCpuWait,
  type CpuShareOptions,
  type CpuTicket,
} from '../../src/http/capacity/cpu-share.ts';
import { CPU_SHARE } from '../../src/config/defaults.ts';

const flooder = { key: 'flooder', anonymous: false };
const victim = { key: 'victim', anonymous: false };
const anonymous = { key: 'network', anonymous: true };

let clock = 0;
let busy = 0;
beforeEach(() => {
  vi.useFakeTimers();
  clock = 0;
  busy = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

function share(overrides: Partial<CpuShareOptions> = {}) {
  return createCpuShare({
    halfLifeMillis: 1_000,
    activeMillis: 1_000,
    userShare: 0.25,
    anonymousShare: 0.1,
    anonymousTotalShare: 0.25,
    maxWaitMillis: 5_000,
    maxWaitingPerCaller: 4,
    maxWaiting: 8,
    maxAccounts: 100,
    busyMillis: () => busy,
    now: () => clock,
    ...overrides,
  });
}

/** Passes `millis` of wall time, the loop busy `busyFraction` of it. */
function pass(millis: number, busyFraction = 1): void {
  clock += millis;
  busy += millis * busyFraction;
  vi.advanceTimersByTime(millis);
}

function ticketOf(admitted: ReturnType<ReturnType<typeof share>['admit']>): CpuTicket {
  if (isCpuWait(admitted)) throw new Error('expected a ticket at once');
  return admitted;
}

/**
 * The flooder runs a hundred 10 ms requests one after another, each busy all its time: a second of work
 * charged to it, where the holding tests start from.
 */
function floodASecond(cpu: ReturnType<typeof share>): void {
  for (let i = 0; i < 100; i++) {
    const ticket = ticketOf(cpu.admit(flooder));
    pass(10);
    ticket.done();
  }
}

it('should split the busy time evenly between the requests running', () => {
  const cpu = share();
  const a = ticketOf(cpu.admit(flooder));
  const b = ticketOf(cpu.admit(victim));
  pass(10);
  a.done();
  b.done();
  // Each ran half of 10 ms (plus nothing more: the estimate is replaced by what it cost).
  expect(cpu.usedMillis('flooder')).toBeCloseTo(5, 1);
  expect(cpu.usedMillis('victim')).toBeCloseTo(cpu.usedMillis('flooder'), 5);
});

it('should never hold back a caller alone, however much it used', () => {
  const cpu = share();
  floodASecond(cpu);
  expect(cpu.usedMillis('flooder')).toBeGreaterThan(500);
  expect(isCpuWait(cpu.admit(flooder))).toBe(false);
});

it('should hold a caller over its share while another is active, and serve the other at once', async () => {
  const cpu = share();
  floodASecond(cpu);
  ticketOf(cpu.admit(victim)).done();
  const held = cpu.admit(flooder);
  expect(isCpuWait(held)).toBe(true);
  if (!isCpuWait(held)) return;
  let admitted = false;
  void held.ticket.then(() => (admitted = true));
  // The victim again: at once.
  expect(isCpuWait(cpu.admit(victim))).toBe(false);
  pass(100, 0);
  await Promise.resolve();
  expect(admitted).toBe(false);
  // Once its account has decayed to its share (about two half-lives here), it runs.
  pass(3_000, 0);
  await Promise.resolve();
  expect(admitted).toBe(true);
});

it('should hold a rested flooder after a burst of its share of one half-life, not of a second', () => {
  // The shipped timing: a caller rested for a second may take about 36 ms of the loop at once (a quarter of
  // 100 ms ÷ ln 2), not the 360 ms a one-second half-life gave it, while a victim admitted 900 ms ago is
  // still active.
  const cpu = share({ halfLifeMillis: CPU_SHARE.halfLifeMillis, activeMillis: CPU_SHARE.activeMillis });
  ticketOf(cpu.admit(victim)).done();
  pass(900, 0);
  let burst = 0;
  for (;;) {
    const admitted = cpu.admit(flooder);
    if (isCpuWait(admitted)) break;
    pass(2);
    admitted.done();
    burst += 2;
  }
  expect(burst).toBeGreaterThan(20);
  expect(burst).toBeLessThanOrEqual(40);
});

it('should charge the mean cost at admission, so parallel requests cannot overdraw the share', () => {
  const cpu = share();
  ticketOf(cpu.admit(victim)).done();
  // Teach the flooder's mean: 50 ms a request.
  for (let i = 0; i < 40; i++) {
    const ticket = ticketOf(cpu.admit(flooder));
    pass(50);
    ticket.done();
    pass(1_000, 0);
    ticketOf(cpu.admit(victim)).done();
  }
  // The budget (a quarter over the half-life: about 360 ms) holds about seven requests, not a hundred.
  let atOnce = 0;
  for (let i = 0; i < 100; i++) {
    const admitted = cpu.admit(flooder);
    if (isCpuWait(admitted)) break;
    atOnce++;
  }
  expect(atOnce).toBeGreaterThan(0);
  expect(atOnce).toBeLessThanOrEqual(8);
});

/**
 * Sixteen networks without a session, each sending a 1 ms request (busy all of it) in turn, `rounds` times
 * with 10 idle ms between rounds; `between(round)` runs after each round. Answers how many ran (a request
 * that would have to wait gives its place up).
 */
function sixteenNetworks(cpu: ReturnType<typeof share>, rounds: number, between?: (round: number) => void) {
  const networks = Array.from({ length: 16 }, (_, i) => ({ key: `network-${i}`, anonymous: true }));
  let ran = 0;
  for (let round = 0; round < rounds; round++) {
    for (const network of networks) {
      const admitted = cpu.admit(network);
      if (isCpuWait(admitted)) {
        admitted.ticket.catch(() => undefined);
        admitted.cancel();
        continue;
      }
      ran += 1;
      pass(1);
      admitted.done();
    }
    pass(10, 0);
    between?.(round);
  }
  return ran;
}

it('should hold what all networks without a session use together to their total share while a user is active', () => {
  const cpu = share({ anonymousTotalShare: 0.2 });
  // A user is active: every network's requests, each within its own tenth, fill the total among them.
  ticketOf(cpu.admit(victim)).done();
  // The user stays active (admitted within `activeMillis`), within its share.
  const ran = sixteenNetworks(cpu, 200, (round) => {
    if (round % 50 === 0) ticketOf(cpu.admit(victim)).done();
  });
  // Each ran 1 ms busy: together at most their total share of the time passed (and its first burst).
  const burst = (0.2 * 1_000) / Math.LN2;
  expect(ran).toBeLessThanOrEqual(0.2 * clock + burst);
  expect(ran).toBeGreaterThan(0);
  // The user is served at once meanwhile.
  expect(isCpuWait(cpu.admit(victim))).toBe(false);
});

it('should never hold a network without a session alone, however much it used', () => {
  const cpu = share({ anonymousTotalShare: 0.2 });
  for (let i = 0; i < 2_000; i++) {
    const ticket = ticketOf(cpu.admit(anonymous));
    pass(1);
    ticket.done();
  }
  expect(cpu.usedMillis('network')).toBeGreaterThan(100);
});

/**
 * Requests that must wait, and the order their tickets are granted in (`served`); each granted one is done
 * at once.
 */
function servedInOrder() {
  const served: string[] = [];
  const waitFor = (admitted: ReturnType<ReturnType<typeof share>['admit']>, key: string) => {
    if (!isCpuWait(admitted)) throw new Error(`${key} expected to wait`);
    void admitted.ticket.then((ticket) => {
      served.push(key);
      ticket.done();
    });
  };
  return { served, waitFor };
}

it('should serve the network served longest ago first among those the total holds', async () => {
  const cpu = share({ anonymousTotalShare: 0.2, maxWaiting: 100 });
  ticketOf(cpu.admit(victim)).done();
  const { served, waitFor } = servedInOrder();
  // Sixteen networks flood until the total is spent; each then has a request waiting.
  const networks = Array.from({ length: 16 }, (_, i) => ({ key: `network-${i}`, anonymous: true }));
  const flooding = new Set(networks.map(({ key }) => key));
  while (flooding.size > 0) {
    for (const network of networks) {
      if (!flooding.has(network.key)) continue;
      const admitted = cpu.admit(network);
      if (isCpuWait(admitted)) {
        flooding.delete(network.key);
        waitFor(admitted, network.key);
        continue;
      }
      pass(1);
      admitted.done();
    }
  }
  // A network that sent nothing yet: it waits too, and is served first as the total finds room.
  waitFor(cpu.admit({ key: 'newcomer', anonymous: true }), 'newcomer');
  for (let step = 0; step < 100 && served.length === 0; step++) {
    pass(10, 0);
    await Promise.resolve();
  }
  expect(served[0]).toBe('newcomer');
});

/**
 * One network (whose own share must be larger than the total) sends requests of `millis`, each busy all its
 * time, until it must wait: the anonymous callers' total is spent.
 */
function spendTheTotal(cpu: ReturnType<typeof share>, millis: number): void {
  const spender = { key: 'spender', anonymous: true };
  for (let i = 0; i < 1_000; i++) {
    const admitted = cpu.admit(spender);
    if (isCpuWait(admitted)) {
      admitted.ticket.catch(() => undefined);
      admitted.cancel();
      return;
    }
    pass(millis);
    admitted.done();
  }
  throw new Error('the spender was never held');
}

it('should serve a network served long ago before networks never seen that waited first', async () => {
  // A network's own share larger than the total, so that one network can spend the total.
  const cpu = share({ anonymousShare: 0.5, anonymousTotalShare: 0.2, maxWaiting: 100 });
  const device = { key: 'device', anonymous: true };
  ticketOf(cpu.admit(device)).done();
  pass(10_000, 0);
  ticketOf(cpu.admit(victim)).done();
  // The total spent by one network, then networks never seen before each send one request, and wait.
  spendTheTotal(cpu, 5);
  const { served, waitFor } = servedInOrder();
  for (let i = 0; i < 32; i++) waitFor(cpu.admit({ key: `fresh-${i}`, anonymous: true }), `fresh-${i}`);
  waitFor(cpu.admit(device), 'device');
  for (let step = 0; step < 100 && served.length === 0; step++) {
    pass(10, 0);
    await Promise.resolve();
  }
  expect(served[0]).toBe('device');
});

it('should grant the lines at most a slice of work a turn of the loop, however late its timer fires', async () => {
  // A network's own share larger than the total, so that one network can spend the total.
  const cpu = share({
    anonymousShare: 0.5,
    anonymousTotalShare: 0.2,
    maxWaitingPerCaller: 4,
    maxWaiting: 200,
  });
  ticketOf(cpu.admit(victim)).done();
  // The total spent by one network, then 32 networks never seen wait with four requests each.
  spendTheTotal(cpu, 1);
  const { served, waitFor } = servedInOrder();
  for (let i = 0; i < 32; i++) {
    for (let request = 0; request < 4; request++) {
      waitFor(cpu.admit({ key: `network-${i}`, anonymous: true }), `network-${i}`);
    }
  }
  const settle = async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  // The loop was blocked for 2 s: the total's timer fires late, with room for every request waiting.
  clock += 2_000;
  ticketOf(cpu.admit(victim)).done();
  vi.advanceTimersToNextTimer();
  await settle();
  // A new network's estimate is 0.5 ms: one turn grants at most the slice's 2 ms of them, 4 requests.
  expect(served.length).toBeGreaterThan(0);
  expect(served.length).toBeLessThanOrEqual(4);
  // The rest follow in later turns, the I/O waiting meanwhile served between them.
  vi.advanceTimersToNextTimer();
  await settle();
  expect(served.length).toBeGreaterThan(4);
  expect(served.length).toBeLessThanOrEqual(8);
});

it('should grant a caller’s own line at most a slice of work a turn of the loop, however late its timer fires', async () => {
  const cpu = share();
  floodASecond(cpu);
  ticketOf(cpu.admit(victim)).done();
  const { served, waitFor } = servedInOrder();
  for (let request = 0; request < 4; request++) waitFor(cpu.admit(flooder), 'flooder');
  // The loop was blocked for 3 s: the flooder's timer fires late, its account decayed far below its share.
  clock += 3_000;
  ticketOf(cpu.admit(victim)).done();
  vi.advanceTimersToNextTimer();
  for (let i = 0; i < 10; i++) await Promise.resolve();
  // Its mean is 10 ms, past the 2 ms slice: one request a turn, the next in the next turn.
  expect(served).toEqual(['flooder']);
  vi.advanceTimersToNextTimer();
  for (let i = 0; i < 10; i++) await Promise.resolve();
  expect(served).toHaveLength(2);
});

it('should refuse a request that has waited maxWaitMillis, however long its wait was foreseen to be', async () => {
  const cpu = share();
  floodASecond(cpu);
  ticketOf(cpu.admit(victim)).done();
  const admitted = cpu.admit(flooder);
  if (!isCpuWait(admitted)) throw new Error('expected the flooder to wait');
  let outcome = 'waiting';
  admitted.ticket.then(
    () => (outcome = 'admitted'),
    (error: unknown) => (outcome = error instanceof CpuShareRefusal ? 'refused' : 'failed'),
  );
  // Work done for it elsewhere (its pattern analyses) keeps its account over the share the whole time.
  for (let step = 0; step < 60 && outcome === 'waiting'; step++) {
    cpu.charge(flooder, 500);
    ticketOf(cpu.admit(victim)).done();
    pass(100, 0);
    await Promise.resolve();
  }
  expect(outcome).toBe('refused');
  // It began to wait after the flood's second; refused within a step of its 5 s.
  expect(clock).toBeLessThanOrEqual(1_000 + 5_000 + 100);
});

it('should refuse past a caller’s line as the caller’s, past all lines as the gateway’s', () => {
  const cpu = share({ maxWaitingPerCaller: 2, maxWaiting: 3 });
  cpu.charge(flooder, 1_000);
  cpu.charge(anonymous, 1_000);
  ticketOf(cpu.admit(victim)).done();
  const waits = [cpu.admit(flooder), cpu.admit(flooder)];
  expect(waits.every(isCpuWait)).toBe(true);
  expect(() => cpu.admit(flooder)).toThrow(expect.objectContaining({ why: 'share' }) as CpuShareRefusal);
  expect(isCpuWait(cpu.admit(anonymous))).toBe(true);
  expect(() => cpu.admit(anonymous)).toThrow(expect.objectContaining({ why: 'full' }) as CpuShareRefusal);
  expect(cpu.counts().waiting).toBe(3);
});

it('should give up the place of a request whose connection closed', async () => {
  const cpu = share();
  floodASecond(cpu);
  ticketOf(cpu.admit(victim)).done();
  const held = cpu.admit(flooder);
  if (!isCpuWait(held)) throw new Error('expected a wait');
  const refused = held.ticket.catch((error: unknown) => error);
  held.cancel();
  expect(await refused).toBeInstanceOf(CpuShareRefusal);
  expect(cpu.counts().waiting).toBe(0);
});

it('should keep at most maxAccounts accounts', () => {
  const cpu = share({ maxAccounts: 3 });
  for (let i = 0; i < 10; i++) cpu.charge({ key: `c${i}`, anonymous: true }, 1);
  expect(cpu.usedMillis('c0')).toBe(0);
  expect(cpu.usedMillis('c9')).toBeGreaterThan(0);
});
