import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildRequestPath } from '../../src/upstream/client/join-url.ts';
import { planIdBatches } from '../../src/upstream/batching/batch-plan.ts';
import { escapeJavaRegex } from '../../src/upstream/pattern-guard/regex-escape.ts';

const base = { origin: 'http://upstream.test', prefix: '/legacy' };

/** What the upstream decodes: the query as `encodeURIComponent` writes it (the reference). */
function reference(path: string, query: Record<string, string | undefined>): string {
  const pairs = Object.entries(query)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
  return `${base.prefix}${path}${pairs.length === 0 ? '' : `?${pairs.join('&')}`}`;
}

/** Any text: plain ASCII, every character `encodeURIComponent` treats specially, and lone surrogates. */
const text = fc.oneof(
  fc.string(),
  fc.string({
    unit: fc.constantFrom(
      'a',
      'Z',
      '0',
      '-',
      '_',
      '.',
      '!',
      '~',
      '*',
      "'",
      '(',
      ')',
      ' ',
      '%',
      '&',
      '=',
      '+',
      '/',
      '?',
      '#',
      '|',
    ),
  }),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom('a', '\ud800', '\udfff', '😀', 'é') }),
);

describe('buildRequestPath', () => {
  it('should encode every query value exactly as encodeURIComponent does, and refuse what it refuses', () => {
    fc.assert(
      fc.property(fc.dictionary(text, fc.option(text, { nil: undefined })), (query) => {
        let expected: string | Error;
        try {
          expected = reference('/studio/jsonp/getAll', query);
        } catch (error) {
          expected = error as Error;
        }
        if (expected instanceof Error) {
          expect(() => buildRequestPath(base, '/studio/jsonp/getAll', query)).toThrow(URIError);
        } else {
          expect(buildRequestPath(base, '/studio/jsonp/getAll', query)).toBe(expected);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('should send plain values as they are and encode the rest', () => {
    expect(buildRequestPath(base, '/getAll', { apiToken: 'a-B_9.~', filterCommand: '{"a":"b c|d"}' })).toBe(
      '/legacy/getAll?apiToken=a-B_9.~&filterCommand=%7B%22a%22%3A%22b%20c%7Cd%22%7D',
    );
  });
});

describe('planIdBatches', () => {
  it('should give every id the pattern escapeJavaRegex gives it, plain ids included', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 20 }), (ids) => {
        const plan = planIdBatches(ids, { maxBatchSize: 7, maxCriterionLength: 200 });
        for (const batch of plan.batches) {
          const alternation = batch.ids.map(escapeJavaRegex).join('|');
          // Grouped when there are several, so that an upstream wrapping the value anchors every id.
          expect(batch.pattern).toBe(batch.ids.length > 1 ? `(?:${alternation})` : alternation);
        }
        for (const single of plan.singles) expect(single.pattern).toBe(escapeJavaRegex(single.id));
      }),
      { numRuns: 300 },
    );
  });

  it('should count a plain id at its length against the URL budget, as its encoded JSON would cost', () => {
    // '(?:abc|def)' costs 1 + 6 (`%3F%3A`) + 3 + 3 (`%7C`) + 3 + 1 bytes: it fits 17 exactly, not 16.
    expect(planIdBatches(['abc', 'def'], { maxBatchSize: 10, maxCriterionLength: 17 }).batches).toHaveLength(
      1,
    );
    expect(planIdBatches(['abc', 'def'], { maxBatchSize: 10, maxCriterionLength: 16 }).batches).toHaveLength(
      2,
    );
    expect(planIdBatches(['abcd'], { maxBatchSize: 10, maxCriterionLength: 3 }).singles).toEqual([
      { id: 'abcd', pattern: 'abcd' },
    ]);
  });
});
