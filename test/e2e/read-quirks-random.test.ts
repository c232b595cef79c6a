/**
 * Random read dialects × random filters, end to end: for every filter, the gateway's answer against an
 * emulator speaking a random set of read quirks is the answer of the faithful emulator (the store as the
 * contract reads it) or a named error, never another answer. The quirks object is the emulator's own: it is
 * read on every call, so one running pair serves every combination.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../support/gateway-harness.ts';
import type { ReadQuirks } from '../../emulator/operations/read-quirks.ts';

const quirks: ReadQuirks = {};
// What the check finds on an upstream whose `matches` sees string fields only: `rate` is a number.
const UNFILTERABLE = 'com.example.LoanType.rate';
const h = useHarness({
  emulator: { readQuirks: quirks },
  env: { UPSTREAM_UNFILTERABLE_FIELDS: UNFILTERABLE },
  listen: false,
});

const PAGE = `query Page($filter: FilterInput) {
  objects(objectName: "com.example.LoanType", first: 100, filter: $filter) { totalCount nodes { id data } }
}`;
const ONE = `query One($filter: FilterInput) { object(objectName: "com.example.LoanType", filter: $filter) { id data } }`;

/** The errors an answer may carry instead of the right one: each names what the upstream did. */
const NAMED = new Set(['UPSTREAM_DIALECT_MISMATCH', 'UPSTREAM_TENANT_MISMATCH']);

const text = fc.constantFrom(
  'Home',
  'Fixed',
  'Car Green',
  'home',
  'e',
  'Green',
  'H',
  'Boat Express',
  'loan',
  '',
);
const criterion = fc.oneof(
  fc.record({
    fieldName: fc.constantFrom('loanType', 'description'),
    operator: fc.constantFrom('equals', 'contains', 'startsWith', 'endsWith'),
    value: text,
    caseInsensitive: fc.boolean(),
  }),
  fc.record({
    fieldName: fc.constantFrom('loanType', 'description'),
    operator: fc.constant('in'),
    values: fc.array(text, { minLength: 1, maxLength: 3 }),
    caseInsensitive: fc.boolean(),
  }),
  fc.record({
    fieldName: fc.constant('rate'),
    operator: fc.constantFrom('equals', 'startsWith'),
    value: fc.constantFrom('3.5', '4', '5.25'),
  }),
  fc.record({
    fieldName: fc.constant('loanType'),
    operator: fc.constant('matches'),
    value: fc.constantFrom('Home.*', '.*Green', 'Car|Boat.*', '[A-Z][a-z]+ Fixed', 'Ho'),
  }),
);
const readQuirks = fc.record(
  {
    wrapAnchors: fc.boolean(),
    lastCriterionPerField: fc.boolean(),
    ignoreOrganization: fc.boolean(),
    getObjectSingle: fc.boolean(),
    matchesStringsOnly: fc.boolean(),
  },
  { requiredKeys: [] },
);

/** Speaks as the contract says again: every quirk off. */
function clearQuirks(): void {
  quirks.wrapAnchors = false;
  quirks.lastCriterionPerField = false;
  quirks.ignoreOrganization = false;
  quirks.getObjectSingle = false;
  quirks.matchesStringsOnly = false;
}

interface Answer {
  data?: Record<string, unknown> | null;
  errors?: readonly { extensions?: Record<string, unknown> }[];
}

/** Tallies of {@link compare}: answers equal to the faithful upstream's, and answers refused by name. */
interface Tally {
  right: number;
  named: number;
}

async function asker(): Promise<(query: string, filter: unknown) => Promise<Answer>> {
  const token = await h.login();
  return async (query, filter) => {
    const { data, errors } = await h.post(query, { filter }, { authorization: `Bearer ${token}` });
    // An upstream ignoring the organization stores it in each record: the one field it may add.
    const records = JSON.parse(
      JSON.stringify(data ?? null, (key, value: unknown) => (key === 'organizationCode' ? undefined : value)),
    ) as Answer['data'];
    return { data: records, ...(errors === undefined ? {} : { errors }) };
  };
}

/** Asks `filter` of the faithful upstream, then of one speaking `switches`: the same answer, or a named error. */
async function compare(
  ask: (query: string, filter: unknown) => Promise<Answer>,
  switches: ReadQuirks,
  criteria: unknown[],
  tally: Tally,
): Promise<void> {
  const filter = { criteria };
  for (const query of [PAGE, ONE]) {
    clearQuirks();
    const expected = await ask(query, filter);
    Object.assign(quirks, switches);
    const got = await ask(query, filter);
    const extensions = got.errors?.[0]?.extensions;
    const code = extensions?.code;
    // Named: a mismatch the gateway found, or the upstream's own refusal in its own words (a wrapped
    // pattern its guard will not run), never an answer that differs without a word.
    // And a filter on a field the upstream cannot filter, refused by name before sending (on the
    // faithful upstream too: the setting is the gateway's, whatever the upstream is today).
    const refused =
      code === 'BAD_USER_INPUT' &&
      (extensions?.upstream !== undefined || extensions?.setting === 'UPSTREAM_UNFILTERABLE_FIELDS');
    if ((typeof code === 'string' && NAMED.has(code)) || refused) {
      tally.named += 1;
      continue;
    }
    expect(got, JSON.stringify(got.errors)).toEqual(expected);
    tally.right += 1;
  }
}

describe('random read dialects × random filters', () => {
  it('should answer every filter as the faithful upstream does, or with a named error', async () => {
    const ask = await asker();
    const tally = { right: 0, named: 0 };
    await fc.assert(
      fc.asyncProperty(
        readQuirks,
        fc.array(criterion, { minLength: 1, maxLength: 3 }),
        (switches, criteria) => compare(ask, switches, criteria, tally),
      ),
      { numRuns: 60, seed: 36 },
    );
    clearQuirks();
    // Not vacuous: some answers were right under the quirks, some were refused by name.
    expect(tally.right).toBeGreaterThan(0);
    expect(tally.named).toBeGreaterThan(0);
  });

  it('should answer every filter right or with a named error with every read quirk on at once', async () => {
    const ask = await asker();
    const every: Required<
      Pick<
        ReadQuirks,
        | 'wrapAnchors'
        | 'lastCriterionPerField'
        | 'ignoreOrganization'
        | 'getObjectSingle'
        | 'matchesStringsOnly'
      >
    > = {
      wrapAnchors: true,
      lastCriterionPerField: true,
      ignoreOrganization: true,
      getObjectSingle: true,
      matchesStringsOnly: true,
    };
    const tally = { right: 0, named: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(criterion, { minLength: 1, maxLength: 3 }), (criteria) =>
        compare(ask, every, criteria, tally),
      ),
      { numRuns: 40, seed: 3636 },
    );
    clearQuirks();
    expect(tally.named).toBeGreaterThan(0);
  });
});
