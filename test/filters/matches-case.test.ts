/**
 * `UPSTREAM_MATCHES_CASE=insensitive`: against an upstream whose `matches` ignores case
 * (`EMULATOR_MATCHES_CASE=insensitive`, `Pattern.CASE_INSENSITIVE`), every operator answers the same records as
 * against a case-sensitive one, in both `UPSTREAM_MATCHES` pattern modes, because the client sends every
 * pattern after `(?-i)`. Without the setting the same upstream answers other cases. Through the real filter
 * compiler, the real client and real emulators.
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

const TYPE = 'com.test.CaseText';
const ALPHABET = ['o', 'O', 'p', 'P', 'e', 'n', 'N', '1', ' ', '.', 'é', 'É'];
type Case = 'sensitive' | 'insensitive';

const text = (maxLength: number) =>
  fc.array(fc.constantFrom(...ALPHABET), { maxLength }).map((chars) => chars.join(''));

/** The values every record set holds: generated once (fixed seed), plus the cases the issue names. */
const VALUES = [...fc.sample(text(4), { numRuns: 40, seed: 28 }), 'open', 'Open', 'OPEN', 'opened', ''];

const { start, keys } = useFilterSides(TYPE, VALUES);

function startSide(mode: MatchesMode, upstream: Case, client: Case): Promise<Side> {
  return start({ matches: mode, matchesCase: upstream }, { matchesMode: mode, matchesCase: client });
}

let reference: Side;
let served: Record<'regex' | 'find', Side>;
let unserved: Side;
beforeAll(async () => {
  let regex: Side;
  let find: Side;
  [reference, regex, find, unserved] = await Promise.all([
    startSide('regex', 'sensitive', 'sensitive'),
    startSide('regex', 'insensitive', 'insensitive'),
    startSide('find', 'insensitive', 'insensitive'),
    startSide('regex', 'insensitive', 'sensitive'),
  ]);
  served = { regex, find };
});
const operand = fc.oneof(fc.constantFrom(...VALUES), text(3));
const condition = filterCondition(
  operand,
  fc.constantFrom('open', 'O.*', '[op]+', 'open|OPEN', '.pen', 'é', ''),
);

describe('UPSTREAM_MATCHES_CASE=insensitive', () => {
  it.each(['regex', 'find'] as const)(
    'should answer every operator exactly from a case-insensitive upstream (UPSTREAM_MATCHES=%s)',
    async (mode) => {
      await fc.assert(
        fc.asyncProperty(condition, async (c) => {
          const sent = await compileUnlessRefused(c, mode);
          if (sent === undefined) return; // refused before sending, in every dialect alike
          expect(await keys(served[mode], sent)).toEqual(await keys(reference, sent));
        }),
        { numRuns: 120, seed: 28 },
      );
    },
    120_000,
  );

  it('should make equals "open" answer "open" alone, where the same upstream without it answers every case', async () => {
    const criteria = await compile({ fieldName: 'text', operator: 'equals', value: 'open' }, 'regex');
    const open = VALUES.indexOf('open');
    expect(await keys(served.regex, criteria)).toEqual([open]);
    const everyCase = VALUES.flatMap((v, i) => (v.toLowerCase() === 'open' ? [i] : []));
    expect(everyCase.length).toBeGreaterThanOrEqual(3);
    expect(await keys(unserved, criteria)).toEqual(everyCase);
  });

  it('should keep caseInsensitive answering every case, its classes untouched by (?-i)', async () => {
    const criteria = await compile(
      { fieldName: 'text', operator: 'equals', value: 'OPEN', caseInsensitive: true },
      'find',
    );
    const everyCase = VALUES.flatMap((v, i) => (v.toLowerCase() === 'open' ? [i] : []));
    expect(await keys(served.find, criteria)).toEqual(everyCase);
  });
});
