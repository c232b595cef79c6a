/**
 * The servlet dialects' proof as a whole: ONE emulator speaking every dialect of a legacy servlet upstream at once (an
 * ISO-8859-1 charset, pages capped at 25, one-based pages with an empty page 0, `totalCount` left out when
 * nothing matches, `matches` found in part of a value and ignoring case, form login by a session cookie, the
 * save id at `data._id`, saves by `_id` that replace, updates taking one parameter per field, metadata under
 * `metadata`, the unknown-type message naming the type mid-sentence). The check, run once with writes, reports
 * every row and recommends each setting; the gateway on that advice serves a front-end's whole journey right,
 * and on its defaults answers each step right or with a named error, never a silently wrong answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../emulator/index.ts';
import { createSeedObjects, DEMO_SEED_COUNTS } from '../../emulator/store/seed-data.ts';
import { startHarness } from '../support/gateway-harness.ts';
import { runUpstreamCheck, verdictOf, type CheckRun } from './check-command.ts';
import { journey, type Journey } from './front-end-journey.ts';

const EVERY_DIALECT: EmulatorOptions = {
  charset: 'iso-8859-1',
  maxPageSize: 25,
  pageStart: 'page1',
  pageZero: 'empty',
  totalCount: 'omit-when-empty',
  matches: 'find',
  matchesCase: 'insensitive',
  formLoginSession: 'cookie',
  saveIdAt: 'data._id',
  saveWithId: 'replaces',
  updateFields: 'params',
  metadataKey: 'metadata',
  errorMessages: {
    'unknown object name':
      "Error while processing the request: the business object type '{objectName}' is not registered for this application (check the spelling)",
  },
};
const WRITES = [
  '--object-name',
  'com.example.Order',
  '--allow-writes',
  '--write-object-name',
  'com.example.LoanType',
];
/** The demo user's form login answers a session cookie: the gateway must log in by form to carry it. */
const FORM = { LOGIN_METHOD: 'FORM' };

/** Each dialect's row, its verdict, and the setting it recommends. */
const ADVICE: [topic: string, verdict: string, setting: string, value: string][] = [
  ['LOGIN_METHOD', 'as-assumed', 'LOGIN_METHOD', 'FORM'],
  ['login session', 'as-assumed', 'LOGIN_METHOD', 'FORM'],
  [
    'unknown object name',
    'differs',
    'UPSTREAM_CALLER_ERROR_PATTERN',
    "the business object type '.+' is not registered",
  ],
  ['pageStart base', 'differs', 'UPSTREAM_PAGE_START', 'page1'],
  ['largest page size', 'differs', 'UPSTREAM_MAX_PAGE_SIZE', '25'],
  ['matches semantics', 'differs', 'UPSTREAM_MATCHES', 'find'],
  ['matches case', 'differs', 'UPSTREAM_MATCHES_CASE', 'insensitive'],
  ['metadata', 'differs', 'UPSTREAM_METADATA_KEY', 'metadata'],
  ['save answer id', 'differs', 'UPSTREAM_SAVE_ID_AT', 'data._id'],
  ['save with _id', 'differs', 'UPSTREAM_SAVE_WITH_ID', 'replaces'],
  ['update fields', 'differs', 'UPSTREAM_UPDATE_FIELDS', 'params'],
];

let upstream: RunningEmulator;
let run: CheckRun;
beforeAll(async () => {
  upstream = await startEmulator({ port: 0, ...EVERY_DIALECT });
  run = await runUpstreamCheck({ url: upstream.url, env: FORM }, WRITES);
});
afterAll(async () => {
  await upstream.close();
});

const ORDERS = DEMO_SEED_COUNTS['com.example.Order'];
/** A seeded order of the demo tenant, for the steps that need one when the listing cannot give it. */
const AN_ORDER = createSeedObjects().find(
  (o) => o.objectName === 'com.example.Order' && o.organizationCode === 'acme',
)!.record._id;

/** The journey through a gateway on `env` in front of the one upstream. */
async function journeyOn(env: Record<string, string>, tag: string): Promise<Journey> {
  const h = await startHarness({ upstream, env, listen: false });
  try {
    return await journey(h, tag, AN_ORDER);
  } finally {
    await h.close();
  }
}

describe('npm run upstream:check --allow-writes against every dialect at once', () => {
  it('should report every row in one run: none left "not asked" or "not probed"', () => {
    const findings = run.report?.findings ?? [];
    expect(findings.length).toBeGreaterThanOrEqual(33);
    for (const { topic, detail } of findings) expect(detail, topic).not.toMatch(/not asked|not probed/);
    // By design the only row the check cannot tell: it never sends an invalid pattern (the gateway's pattern
    // guard refuses them before any upstream call), so there is no answer to read.
    const untold = findings.filter((f) => f.verdict === 'cannot-tell');
    expect(untold.map((f) => [f.topic, f.detail])).toEqual([
      ['invalid pattern', expect.stringMatching(/^not sent by design/)],
    ]);
  });

  it.each(ADVICE)('should answer %s %s and recommend %s', (topic, verdict, setting, value) => {
    expect(verdictOf(run, topic)).toBe(verdict);
    expect(run.env[setting]).toContain(value);
  });

  it('should find what needs no setting: the charset named in each answer, totalCount left out as 0, Latin-1 text', () => {
    expect(verdictOf(run, 'answer charset')).toBe('as-assumed');
    expect(run.report?.findings.find((f) => f.topic === 'totalCount form')?.detail).toContain('left out');
    expect(verdictOf(run, 'Latin-1 text')).toBe('as-assumed');
    expect(verdictOf(run, 'request charset')).toBe('as-assumed');
  });

  it('should exit 1 (README: CANNOT SERVE) for text beyond Latin-1 alone, and say so plainly in the table', () => {
    expect(run.code).toBe(1);
    const cannot = run.report?.findings.filter((f) => f.verdict === 'cannot-serve').map((f) => f.topic);
    expect(cannot).toEqual(['non-Latin-1 text']);
    expect(run.stdout).toMatch(
      /non-Latin-1 text +CANNOT SERVE +.*iso-8859-1 and cannot give back text outside it/,
    );
    expect(run.stdout).toMatch(
      /The gateway CANNOT work with this upstream as it is: see the CANNOT SERVE rows/,
    );
    // The settings are written all the same, for every other row.
    expect(run.envText).toContain('UPSTREAM_UPDATE_FIELDS=params');
  });
});

/** A named error, as the front end sees it. */
const named = (code: string, extensions: Record<string, unknown> = {}) => ({
  code,
  extensions: expect.objectContaining({ code, ...extensions }),
});
const mismatch = (assumption: string, setting: string, more: Record<string, unknown> = {}) =>
  named('UPSTREAM_DIALECT_MISMATCH', { blame: 'gateway', assumption, setting, ...more });
const beyondLatin1 = named('BAD_USER_INPUT', { argumentName: 'data.loanType' });
/** Without UPSTREAM_CALLER_ERROR_PATTERN a misspelt type is the upstream's refusal, its words passed on. */
const typoInUpstreamWords = named('UPSTREAM_ERROR', {
  blame: 'upstream_refusal',
  upstream: expect.objectContaining({
    message: expect.stringContaining("type 'com.example.Ordr' is not registered"),
  }),
});

const SAVED_WITH_ID = { loanType: 'Société Générale', description: 'Grüße', rate: 4 };

/** The journey's right answers, for the records of run `tag`. */
const rightAnswers = (tag: string) => ({
  login: { ok: '5550100' },
  // Every order once, in pages of 50 (each 2 calls of 25), the last one saying so.
  paging: {
    ok: expect.objectContaining({
      records: ORDERS,
      distinct: ORDERS,
      totalCount: ORDERS,
      pages: ORDERS / 50,
    }),
  },
  orderById: { ok: true },
  saveCased: { ok: expect.objectContaining({ description: `CASE ${tag.toUpperCase()}` }) },
  // The upstream ignores case and finds patterns in part of a value; equals does neither.
  equals: { ok: [`Case ${tag}`] },
  objectByFilter: { ok: `CASE ${tag.toUpperCase()}` },
  typedFilter: { ok: { right: true, customersNamed: true } },
  typedReference: { ok: 30 },
  metadata: { ok: true },
  saveLatin1: { ok: expect.objectContaining({ loanType: 'Société Générale', description: 'Grüße' }) },
  saveWithId: {
    ok: expect.objectContaining({ loanType: 'Société Générale', description: 'Grüße', rate: 4 }),
  },
  update: { ok: { description: 'Mise à jour' } },
  readBack: {
    ok: expect.objectContaining({ loanType: 'Société Générale', description: 'Mise à jour', rate: 4 }),
  },
  beyondLatin1: expect.objectContaining(beyondLatin1),
  // The upstream's refusal of a misspelt type, known by UPSTREAM_CALLER_ERROR_PATTERN: the caller's mistake.
  typo: expect.objectContaining(named('BAD_USER_INPUT', { blame: 'caller' })),
});

describe('the gateway on that advice, the front-end journey', () => {
  it('should answer every step right, and refuse text beyond Latin-1 by name', async () => {
    expect(await journeyOn(run.env, 'advised')).toEqual(rightAnswers('advised'));
  });
});

describe('the gateway on that advice but one setting, the same journey', () => {
  it('should answer each step right or with a named error, whichever setting is missing', async () => {
    const settings = Object.keys(run.env).filter((name) => name !== 'LOGIN_METHOD');
    expect(settings.length).toBeGreaterThanOrEqual(10);
    const named: Record<string, Set<unknown>> = {};
    for (const missing of settings) {
      const tag = `without ${missing.toLowerCase().replaceAll('_', ' ')}`;
      const env = Object.fromEntries(Object.entries(run.env).filter(([name]) => name !== missing));
      const steps = await journeyOn(env, tag);
      const right: Record<string, unknown> = rightAnswers(tag);
      // An update refused by name after it was applied (it says what it wrote): the read shows the object as
      // it is, every field saved before kept.
      if (!('ok' in steps.update)) right.readBack = { ok: expect.objectContaining(SAVED_WITH_ID) };
      for (const [step, outcome] of Object.entries(steps)) {
        if (step === 'typo' && missing === 'UPSTREAM_CALLER_ERROR_PATTERN') {
          expect(outcome, `${missing}: ${step}`).toEqual(expect.objectContaining(typoInUpstreamWords));
          continue;
        }
        if ('ok' in outcome || outcome.code === 'BAD_USER_INPUT') {
          expect(outcome, `${missing}: ${step}`).toEqual(right[step]);
          continue;
        }
        expect(outcome.extensions, `${missing}: ${step}`).toMatchObject({
          code: 'UPSTREAM_DIALECT_MISMATCH',
          assumption: expect.any(String),
          setting: expect.any(String),
        });
        (named[missing] ??= new Set()).add(outcome.extensions?.setting);
      }
    }
    // Where the journey meets a missing setting, the errors name that setting and no other.
    for (const [missing, names] of Object.entries(named)) expect([...names], missing).toEqual([missing]);
    // Every dialect setting is met by name. UPSTREAM_MAX_URL_BYTES is not: the check found the default's limit.
    const dialectSettings = ADVICE.map(([, , setting]) => setting).filter(
      (name) => name.startsWith('UPSTREAM_') && name !== 'UPSTREAM_CALLER_ERROR_PATTERN',
    );
    expect(Object.keys(named).sort()).toEqual(dialectSettings.sort());
  });
});

describe(
  'the gateway on its defaults (LOGIN_METHOD=FORM only), the same journey',
  { timeout: 60_000 },
  () => {
    it('should answer each step right or with a named error, never a silently wrong answer', async () => {
      const steps = await journeyOn(FORM, 'defaults');
      const observed = Object.fromEntries(
        Object.entries(steps).map(([step, o]) => [
          step,
          'ok' in o ? o : { code: o.code, extensions: o.extensions },
        ]),
      );
      expect(observed).toEqual({
        // The cookie session needs no setting: the gateway seals whatever the form login answers.
        login: { ok: '5550100' },
        // Page 0 of a one-based upstream is empty while totalCount says 250: named, never an empty last page.
        paging: mismatch('page_start', 'UPSTREAM_PAGE_START'),
        // A read by id is one page 0 too: named, never `null` for an order that exists.
        orderById: mismatch('page_start', 'UPSTREAM_PAGE_START'),
        saveCased: mismatch('save_id', 'UPSTREAM_SAVE_ID_AT', {
          applied: true,
          objectId: expect.any(String),
        }),
        equals: mismatch('page_start', 'UPSTREAM_PAGE_START'),
        // No paging in a getObject: the other case answered is seen, and named.
        objectByFilter: mismatch('matches_case', 'UPSTREAM_MATCHES_CASE'),
        typedFilter: mismatch('page_start', 'UPSTREAM_PAGE_START'),
        typedReference: mismatch('page_start', 'UPSTREAM_PAGE_START'),
        metadata: mismatch('metadata_key', 'UPSTREAM_METADATA_KEY'),
        saveLatin1: mismatch('save_id', 'UPSTREAM_SAVE_ID_AT', {
          applied: true,
          objectId: expect.any(String),
        }),
        // Its read before the save (to verify the merge) is named: nothing is sent, no field lost.
        saveWithId: mismatch('page_start', 'UPSTREAM_PAGE_START'),
        // Its read first (an upstream may update by _id whatever the organization) is named: nothing is sent.
        update: mismatch('page_start', 'UPSTREAM_PAGE_START'),
        readBack: mismatch('page_start', 'UPSTREAM_PAGE_START'),
        typo: typoInUpstreamWords,
        beyondLatin1,
      });
    });
  },
);
