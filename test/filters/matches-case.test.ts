/**
 * `UPSTREAM_MATCHES_CASE=insensitive`: against an upstream whose `matches` ignores case
 * (`EMULATOR_MATCHES_CASE=insensitive`, `Pattern.CASE_INSENSITIVE`), every operator answers the same records as
 * against a case-sensitive one, in both `UPSTREAM_MATCHES` pattern modes, because the client sends every
 * pattern after `(?-i)`. Without the setting the same upstream answers other cases. Through the real filter
 * compiler, the real client and real emulators.
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

const TYPE = 'com.test.CaseText';
const ALPHABET = ['o', 'O', 'p', 'P', 'e', 'n', 'N', '1', ' ', '.', 'é', 'É'];
type Case = 'sensitive' | 'insensitive';

const text = (maxLength: number) =>
  fc.array(fc.constantFrom(...ALPHABET), { maxLength }).map((chars) => chars.join(''));

/** The values every record set holds: generated once (fixed seed), plus the cases the issue names. */
const VALUES = [...fc.sample(text(4), { numRuns: 40, seed: 28 }), 'open', 'Open', 'OPEN', 'opened', ''];

interface Side {
  emulator: RunningEmulator;
  client: UpstreamClient;
  credentials: UpstreamCredentials;
}

async function startSide(mode: MatchesMode, upstream: Case, client: Case): Promise<Side> {
  const emulator = await startEmulator({
    port: 0,
    matches: mode,
    matchesCase: upstream,
    objectTypes: [TYPE],
  });
  const upstreamClient = clientAt(emulator.url, { matchesMode: mode, matchesCase: client });
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
}, 60_000);
afterAll(async () => {
  for (const side of [reference, served.regex, served.find, unserved]) {
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
    value: fc.constantFrom('open', 'O.*', '[op]+', 'open|OPEN', '.pen', 'é', ''),
  }),
);

describe('UPSTREAM_MATCHES_CASE=insensitive', () => {
  it.each(['regex', 'find'] as const)(
    'should answer every operator exactly from a case-insensitive upstream (UPSTREAM_MATCHES=%s)',
    async (mode) => {
      await fc.assert(
        fc.asyncProperty(condition, async (c) => {
          let sent: Criterion[];
          try {
            sent = await compile(c, mode);
          } catch (error) {
            if (error instanceof FilterError) return; // refused before sending, in every dialect alike
            throw error;
          }
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
