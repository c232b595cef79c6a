/**
 * The budget of upstream answer bytes held at once (`src/upstream/client/answer-budget.ts`): a user's own share
 * refused as the caller's (`answer_share`), the total refused as overload (`overloaded`), neither counted
 * against the breaker, every byte given back when the answer is parsed or cut, and a user's entry dropped
 * when it holds nothing.
 */
import { describe, expect, it } from 'vitest';
import { SETTING_DEFAULTS, UPSTREAM_MAX_RESPONSE_BYTES } from '../../src/config/defaults.ts';
import { SMALL_ANSWER_BYTES, createAnswerBudget } from '../../src/upstream/client/answer-budget.ts';
import { blameOf, countsAgainstUpstream, isUpstreamError } from '../../src/errors/upstream-error.ts';
import { CREDENTIALS, failureOf } from '../support/client-for.ts';
import { useMisbehavingServer } from '../support/misbehaving-fixture.ts';

const KiB = 1024;

describe('createAnswerBudget', () => {
  it('should refuse past a user share as the caller’s, past the total as overload, and give bytes back on release', () => {
    const budget = createAnswerBudget({
      totalBytes: 1000 * KiB,
      perUserBytes: 600 * KiB,
      anonymousBytes: 10 * KiB,
    });
    const a = budget.lease('user:a', 'getAll');
    const b = budget.lease('user:b', 'getAll');
    expect(a.take(500 * KiB)).toBeUndefined();
    expect(a.take(200 * KiB)).toMatchObject({ kind: 'answer_share' });
    expect(b.take(500 * KiB)).toBeUndefined();
    expect(b.take(1)).toMatchObject({ kind: 'overloaded' });
    expect(budget.heldBytes()).toBe(1000 * KiB);
    a.release();
    a.release();
    expect(budget.heldBytes()).toBe(500 * KiB);
    expect(b.take(100 * KiB)).toBeUndefined();
    b.release();
    expect(budget.heldBytes()).toBe(0);
    expect(budget.holders()).toBe(0);
  });

  it('should never refuse the first SMALL_ANSWER_BYTES of an answer for the total, only for the share', () => {
    const budget = createAnswerBudget({
      totalBytes: 100 * KiB,
      perUserBytes: 100 * KiB,
      anonymousBytes: KiB,
    });
    const large = budget.lease('user:a', 'getAll');
    expect(large.take(100 * KiB)).toBeUndefined();
    const small = budget.lease('user:b', 'getAll');
    expect(small.take(SMALL_ANSWER_BYTES)).toBeUndefined();
    expect(small.take(1)).toMatchObject({ kind: 'overloaded' });
    expect(budget.lease('user:a', 'getAll').take(1)).toMatchObject({ kind: 'answer_share' });
  });

  it('should read a largest answer beside another answer of the same user with the default shares', () => {
    const budget = createAnswerBudget({
      totalBytes: SETTING_DEFAULTS.UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES,
      perUserBytes: SETTING_DEFAULTS.UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES_PER_USER,
      anonymousBytes: 1,
    });
    // Two loaders of one GraphQL request: a small answer first, then one announced at the largest size.
    const small = budget.lease('user:a', 'getAll');
    const large = budget.lease('user:a', 'getAll');
    expect(small.take(SMALL_ANSWER_BYTES)).toBeUndefined();
    expect(large.take(UPSTREAM_MAX_RESPONSE_BYTES)).toBeUndefined();
    small.release();
    large.release();
  });

  it('should give calls without an identity (logins) one small share together', () => {
    const budget = createAnswerBudget({ totalBytes: 100, perUserBytes: 60, anonymousBytes: 10 });
    const first = budget.lease(undefined, 'loginJson');
    const second = budget.lease(undefined, 'loginForm');
    expect(first.take(8)).toBeUndefined();
    expect(second.take(8)).toMatchObject({ kind: 'answer_share' });
    first.release();
    second.release();
    expect(budget.holders()).toBe(0);
  });

  it('should count neither refusal against the upstream', () => {
    const budget = createAnswerBudget({ totalBytes: 10 * KiB, perUserBytes: 5 * KiB, anonymousBytes: 1 });
    const share = budget.lease('user:a', 'getAll').take(6 * KiB);
    const total = createAnswerBudget({ totalBytes: 5 * KiB, perUserBytes: 1024 * KiB, anonymousBytes: 1 })
      .lease('user:a', 'getAll')
      .take(SMALL_ANSWER_BYTES + 1);
    expect(countsAgainstUpstream(share)).toBe(false);
    expect(countsAgainstUpstream(total)).toBe(false);
    expect(share === undefined ? undefined : blameOf(share.kind)).toBe('caller');
  });
});

describe('the upstream client under the answer budget', () => {
  const fixture = useMisbehavingServer();

  it('should cut a streamed answer past the user share with answer_share, then serve the next read', async () => {
    const client = fixture.client('oversized', {
      maxResponseBytes: 1024 * KiB,
      maxInflightAnswerBytesPerUser: 64 * KiB,
    });
    const error = await failureOf(client.getAll(CREDENTIALS, 'com.example.LoanType', [], 10, 0));
    expect(error).toMatchObject({ kind: 'answer_share' });
    expect(countsAgainstUpstream(error)).toBe(false);
    const ok = fixture.client('ok', { maxInflightAnswerBytesPerUser: 64 * KiB });
    await expect(ok.getAll(CREDENTIALS, 'com.example.LoanType', [], 10, 0)).resolves.toBeDefined();
  });

  it('should cut a streamed answer past the total with overloaded, not counted against the breaker', async () => {
    const client = fixture.client('oversized', {
      maxResponseBytes: 1024 * KiB,
      maxInflightAnswerBytes: 64 * KiB,
      maxInflightAnswerBytesPerUser: 512 * KiB,
    });
    const error = await failureOf(client.getAll(CREDENTIALS, 'com.example.LoanType', [], 10, 0));
    expect(error).toMatchObject({ kind: 'overloaded' });
    expect(countsAgainstUpstream(error)).toBe(false);
  });

  it('should refuse an announced length past the share before reading it', async () => {
    const client = fixture.client('oversized-length', {
      maxResponseBytes: 64 * 1024 * KiB,
      maxInflightAnswerBytesPerUser: 1024 * KiB,
    });
    const error = await failureOf(client.getAll(CREDENTIALS, 'com.example.LoanType', [], 10, 0));
    expect(error).toMatchObject({ kind: 'answer_share' });
  });

  it('should call a write whose answer the budget cut outcome_unknown, never a vote against the upstream', async () => {
    const client = fixture.client('oversized', {
      maxResponseBytes: 1024 * KiB,
      maxInflightAnswerBytesPerUser: 64 * KiB,
    });
    const error = await failureOf(client.save(CREDENTIALS, 'com.example.LoanType', { name: 'x' }));
    expect(error).toMatchObject({ kind: 'outcome_unknown', detail: 'answer_share' });
    expect(isUpstreamError(error) && countsAgainstUpstream(error)).toBe(false);
  });
});
