/**
 * `UPSTREAM_MATCHES=find`: against an upstream whose `matches` finds a pattern in any part of the value
 * (`Matcher.find()`, MongoDB's `$regex`), every operator answers the same records as against one whose
 * `matches` takes the whole value, because the client anchors what it sends with `\A(?:…)\z`. Through the
 * real filter compiler, the real client and two real emulators (EMULATOR_MATCHES=regex and =find).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.ts';
import {
  compileCriteria,
  type FilterCondition,
  type FilterOperator,
} from '../../src/filters/compile-criteria.ts';
import { FilterError } from '../../src/errors/filter-error.ts';
import { defaultPatternGuard } from '../support/pattern-guard.ts';
import type {
  Criterion,
  MatchesMode,
  UpstreamClient,
  UpstreamCredentials,
} from '../../src/upstream/client/types.ts';
import { clientAt } from '../support/client-for.ts';

const TYPE = 'com.test.FindText';
const ALPHABET = ['a', 'b', 'A', 'B', '1', ' ', '-', '.', '\n', 'é'];

const text = (maxLength: number) =>
  fc.array(fc.constantFrom(...ALPHABET), { maxLength }).map((chars) => chars.join(''));

/** The values every record set holds: generated once (fixed seed), plus the cases the issue names. */
const VALUES = [
  ...fc.sample(text(5), { numRuns: 40, seed: 22 }),
  'Type 1',
  'Type 10',
  'Type 19',
  'ab\n',
  'ab',
  '',
];

interface Side {
  emulator: RunningEmulator;
  client: UpstreamClient;
  credentials: UpstreamCredentials;
}

async function startSide(upstream: MatchesMode, client: MatchesMode): Promise<Side> {
  const emulator = await startEmulator({ port: 0, matches: upstream, objectTypes: [TYPE] });
  const { url } = emulator;
  const upstreamClient = clientAt(url, { matchesMode: client });
  const { token } = await upstreamClient.loginJson('demo', 'demo-password');
  const credentials = {
    username: 'demo',
    apiToken: token,
    applicationCode: 'demo',
    organizationCode: 'acme',
  };
  for (const [key, value] of VALUES.entries()) {
    await upstreamClient.save(credentials, TYPE, { key, text: value, nested: { text: value } });
  }
  return { emulator, client: upstreamClient, credentials };
}

let whole: Side;
let part: Side;
let partUnanchored: Side;
beforeAll(async () => {
  [whole, part, partUnanchored] = await Promise.all([
    startSide('regex', 'regex'),
    startSide('find', 'find'),
    startSide('find', 'regex'),
  ]);
}, 60_000);
afterAll(async () => {
  for (const side of [whole, part, partUnanchored]) {
    await side.client.close();
    await side.emulator.close();
  }
});

/** The `key`s of the records `criteria` select, sorted. */
async function keys(side: Side, criteria: Criterion[]): Promise<number[]> {
  const page = await side.client.getAll(side.credentials, TYPE, criteria, 100, 0);
  return page.records.map((r) => Number(r.key)).sort((a, b) => a - b);
}

const guard = defaultPatternGuard();

async function compile(condition: Omit<FilterCondition, 'at'>, matchesMode: MatchesMode) {
  const at = { value: 'filter.value', values: 'filter.values', caseInsensitive: 'filter.caseInsensitive' };
  return compileCriteria([{ ...condition, at }], { matchesMode, guard, argumentName: 'filter' });
}

const operand = fc.oneof(fc.constantFrom(...VALUES), text(3));
/** Caller-written patterns the guard accepts, built from the alphabet. */
const pattern = fc.constantFrom(
  'a',
  'a.*',
  '[ab]+',
  'a|b',
  'A?a',
  '.',
  '(?:a|B)b*',
  '[^a]*',
  'ab',
  'Type 1',
  'Type 1\\d',
  '',
);

const condition = fc.oneof(
  fc.record({
    fieldName: fc.constantFrom('text', 'nested.text'),
    operator: fc.constantFrom<FilterOperator>('equals', 'contains', 'startsWith', 'endsWith'),
    value: operand,
    caseInsensitive: fc.boolean(),
  }),
  fc.record({
    fieldName: fc.constantFrom('text', 'nested.text'),
    operator: fc.constant<FilterOperator>('in'),
    values: fc.array(operand, { maxLength: 4 }),
    caseInsensitive: fc.boolean(),
  }),
  fc.record({
    fieldName: fc.constantFrom('text', 'nested.text'),
    operator: fc.constant<FilterOperator>('matches'),
    value: pattern,
  }),
);

describe('UPSTREAM_MATCHES=find', () => {
  it('should answer the same records from a part-matching upstream as from a whole-matching one, for every operator', async () => {
    await fc.assert(
      fc.asyncProperty(condition, async (c) => {
        let sentWhole: Criterion[];
        try {
          sentWhole = await compile(c, 'regex');
        } catch (error) {
          if (error instanceof FilterError) return; // refused before sending, in both modes alike
          throw error;
        }
        const sentPart = await compile(c, 'find');
        expect(sentPart).toEqual(sentWhole);
        expect(await keys(part, sentPart)).toEqual(await keys(whole, sentWhole));
      }),
      { numRuns: 200, seed: 22 },
    );
  }, 120_000);

  it('should make equals "Type 1" answer none of Type 10 … Type 19, which an unanchored pattern answers', async () => {
    const criteria = await compile({ fieldName: 'text', operator: 'equals', value: 'Type 1' }, 'find');
    const exact = VALUES.indexOf('Type 1');
    expect(await keys(whole, criteria)).toEqual([exact]);
    expect(await keys(part, criteria)).toEqual([exact]);
    expect(await keys(partUnanchored, criteria)).toEqual(
      [exact, VALUES.indexOf('Type 10'), VALUES.indexOf('Type 19')].sort((a, b) => a - b),
    );
  });

  it('should anchor with \\z, not $, which Java and PCRE also match before a final line break', async () => {
    const ab = VALUES.indexOf('ab');
    const dollar = [{ fieldName: 'text', operator: 'matches', value: '^(?:ab)$' }];
    expect(await keys(partUnanchored, dollar)).toEqual([ab, VALUES.indexOf('ab\n')].sort((a, b) => a - b));
    const equals = await compile({ fieldName: 'text', operator: 'equals', value: 'ab' }, 'find');
    expect(await keys(part, equals)).toEqual([ab]);
  });
});
