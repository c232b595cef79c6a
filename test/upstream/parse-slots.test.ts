/**
 * Parse slots: large answers are parsed one per user at a time, users taking turns, with a turn of the
 * event loop before each, so one user's stream of large answers cannot keep another's work waiting.
 */
import { describe, expect, it } from 'vitest';
import { createParseSlots, isLargeAnswer } from '../../src/upstream/dialect/parse-slots.ts';
import { UPSTREAM_LARGE_PARSE_BYTES } from '../../src/config/defaults.ts';

describe('parse slots', () => {
  it('alternates two users when one queued its large parses first', async () => {
    const slots = createParseSlots({ total: 1 });
    const order: string[] = [];
    const runs = [
      ...['a1', 'a2', 'a3'].map((name) => slots.run('alice', () => order.push(name))),
      ...['b1', 'b2', 'b3'].map((name) => slots.run('bob', () => order.push(name))),
    ];
    await Promise.all(runs);
    expect(order).toEqual(['a1', 'b1', 'a2', 'b2', 'a3', 'b3']);
    expect(slots.inUse()).toEqual({ running: 0, waiting: 0 });
  });

  it('runs one large parse per user at a time, and several users at once up to the total', async () => {
    const slots = createParseSlots({ total: 2 });
    const order: string[] = [];
    // The parse itself is synchronous; what is held is the slot, across the turn of the event loop before it.
    const running: number[] = [];
    const parse = (user: string): Promise<number> =>
      slots.run(user, () => {
        running.push(slots.inUse().running);
        return order.push(user);
      });
    await Promise.all([parse('alice'), parse('alice'), parse('alice'), parse('bob'), parse('carol')]);
    // Alice's second parse waits for her first, and for carol, a newcomer; never two of hers at once.
    expect(order).toEqual(['alice', 'bob', 'carol', 'alice', 'alice']);
    expect(running.slice(0, 2)).toEqual([2, 2]);
    expect(Math.max(...running)).toBe(2);
    expect(slots.inUse()).toEqual({ running: 0, waiting: 0 });
  });

  it("rests a user's slot as long as its parse ran, while other users' parses go on", async () => {
    const slots = createParseSlots({ total: 1 });
    const order: string[] = [];
    const busy = (name: string, millis: number) => () => {
      const until = performance.now() + millis;
      while (performance.now() < until);
      order.push(name);
      // Queued as alice's parse ends: a timer shorter than her rest, which is at least as long as the parse.
      if (name === 'a1') setTimeout(() => order.push('timer'), 5);
    };
    const a1 = slots.run('alice', busy('a1', 20));
    const a2 = slots.run('alice', busy('a2', 0));
    const b1 = slots.run('bob', busy('b1', 0));
    await Promise.all([a1, a2, b1]);
    // Bob's parse takes the one slot while alice's rests; her next parse waits for the rest to end.
    expect(order).toEqual(['a1', 'b1', 'timer', 'a2']);
    expect(slots.inUse()).toEqual({ running: 0, waiting: 0 });
  });

  it('lets other work run before each large parse', async () => {
    const slots = createParseSlots();
    const order: string[] = [];
    const parse = slots.run('alice', () => order.push('parse'));
    setImmediate(() => order.push('other request'));
    await parse;
    expect(order).toEqual(['other request', 'parse']);
  });

  it('frees the slot when a parse throws', async () => {
    const slots = createParseSlots({ total: 1 });
    await expect(
      slots.run('alice', () => {
        throw new Error('bad body');
      }),
    ).rejects.toThrow('bad body');
    await expect(slots.run(undefined, () => 'next')).resolves.toBe('next');
    expect(slots.inUse()).toEqual({ running: 0, waiting: 0 });
  });

  it('takes only large answers', () => {
    expect(isLargeAnswer(UPSTREAM_LARGE_PARSE_BYTES - 1)).toBe(false);
    expect(isLargeAnswer(UPSTREAM_LARGE_PARSE_BYTES)).toBe(true);
  });
});
