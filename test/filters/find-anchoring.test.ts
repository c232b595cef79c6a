/**
 * `UPSTREAM_MATCHES=find`: against an upstream whose `matches` finds a pattern in any part of the value
 * (`Matcher.find()`, MongoDB's `$regex`), every operator answers the same records as against one whose
 * `matches` takes the whole value, because the client anchors what it sends with `\A(?:…)\z`. Through the
 * real filter compiler, the real client and two real emulators (EMULATOR_MATCHES=regex and =find).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MatchesMode } from '../../src/upstream/client/types.ts';
import {
  compileFilter as compile,
  useFilterSides,
  type FilterSide as Side,
} from '../support/filter-sides.ts';
import { compileUnlessRefused } from '../support/compile-unless-refused.ts';
import { filterCondition } from '../support/filter-condition.ts';

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

const { start, keys } = useFilterSides(TYPE, VALUES);

function startSide(upstream: MatchesMode, client: MatchesMode): Promise<Side> {
  return start({ matches: upstream }, { matchesMode: client });
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
});
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

const condition = filterCondition(operand, pattern);

describe('UPSTREAM_MATCHES=find', () => {
  it('should answer the same records from a part-matching upstream as from a whole-matching one, for every operator', async () => {
    await fc.assert(
      fc.asyncProperty(condition, async (c) => {
        const sentWhole = await compileUnlessRefused(c, 'regex');
        if (sentWhole === undefined) return; // refused before sending, in both modes alike
        const sentPart = await compile(c, 'find');
        expect(sentPart).toEqual(sentWhole);
        expect(await keys(part, sentPart)).toEqual(await keys(whole, sentWhole));
      }),
      { numRuns: 200, seed: 22 },
    );
  });

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
