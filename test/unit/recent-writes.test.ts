/**
 * The memories a save with `_id` reads (`src/upstream/dialect/writes/`): the fields this gateway wrote a
 * moment ago (merged, replaced whole, forgotten when their time is up or the memory is full), and the types
 * seen to replace on a save with `_id` (bounded, oldest forgotten first).
 */
import { describe, expect, it } from 'vitest';
import { createRecentWrites } from '../../src/upstream/dialect/writes/recent-writes.ts';
import { createReplacingTypes } from '../../src/upstream/dialect/writes/replacing-types.ts';

describe('createRecentWrites', () => {
  it('should merge the writes to one object, replace them after a whole write, and forget them in time', () => {
    let clock = 1_000;
    const recent = createRecentWrites(10, () => clock);
    recent.remember('T', 'a', { _id: 'a', rate: 1, note: 'x' }, 500);
    recent.remember('T', 'a', { rate: 2 }, 500);
    expect(recent.recall('T', 'a')).toEqual({ rate: 2, note: 'x' });
    recent.remember('T', 'a', { status: 'open' }, 500, true);
    expect(recent.recall('T', 'a')).toEqual({ status: 'open' });
    expect(recent.recall('U', 'a')).toBeUndefined();
    clock += 500;
    expect(recent.recall('T', 'a')).toBeUndefined();
  });

  it('should hold at most its bound, forgetting the oldest object first', () => {
    const recent = createRecentWrites(2, () => 0);
    for (const id of ['a', 'b', 'c']) recent.remember('T', id, { n: id }, 1_000);
    expect(recent.recall('T', 'a')).toBeUndefined();
    expect(recent.recall('T', 'c')).toEqual({ n: 'c' });
  });
});

describe('createReplacingTypes', () => {
  it('should remember types up to its bound, the oldest forgotten first', () => {
    const types = createReplacingTypes(2);
    types.add('A');
    types.add('B');
    types.add('C');
    expect([types.has('A'), types.has('B'), types.has('C')]).toEqual([false, true, true]);
  });
});
