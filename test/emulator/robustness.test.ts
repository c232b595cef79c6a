import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rejectPattern } from '../../emulator/operations/regex-guard.ts';
import { useEmulator } from '../support/emulator-fixture.ts';

const { emulator, demo } = useEmulator();

const PATHS = [
  '/studio/jsonp/getAll',
  '/studio/jsonp/getObject/',
  '/studio/jsonp/metadata/get/65a475800101e0c0de000000/',
  '/studio/jsonp/update/65a475800101e0c0de000000',
];
const PARAMS = [
  'callback',
  'objectName',
  'filterCommand',
  'pageSize',
  'pageStart',
  'data',
  'organizationCode',
  'category',
];

/** No stack trace, file path or internal error text ever reaches the wire. */
const expectNoLeak = (body: string): void => {
  expect(body).not.toMatch(/\bat [\w.<>]+ \(|\.ts:\d+|TypeError|SyntaxError|internal error/);
};

describe('hostile input', () => {
  it('should answer any query on the JSONP operations with 200 or 400 and a plain status', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PATHS),
        fc.dictionary(
          fc.constantFrom(...PARAMS),
          fc.oneof(fc.string(), fc.json(), fc.constantFrom('cb', 'com.example.Order', '-1', '1e3')),
        ),
        async (path, params) => {
          const query = new URLSearchParams({ ...demo, callback: 'cb', ...params });
          const response = await fetch(`${emulator.url}${path}?${query.toString()}`);
          const body = await response.text();
          expect([200, 400]).toContain(response.status);
          expect(body).toMatch(/"status":"(success|error)"/);
          expectNoLeak(body);
        },
      ),
      { numRuns: 120 },
    );
  });

  it('should answer any body on save and the logins with a plain status, never a crash', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/studio/jsonp/save?callback=cb', '/v1/user/login', '/app/login.jsp'),
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) =>
            JSON.stringify({
              objectName: 'com.example.Order',
              data: v,
              apiToken: demo.apiToken,
              applicationCode: 'demo',
              organizationCode: 'acme',
            }),
          ),
        ),
        async (path, body) => {
          const response = await fetch(`${emulator.url}${path}`, { method: 'POST', body });
          const text = await response.text();
          expect(response.status).toBe(200);
          expect(text).toMatch(/"status":"(success|error)"/);
          expectNoLeak(text);
        },
      ),
      { numRuns: 120 },
    );
  });

  it('should answer a malformed percent-escape in the path or query', async () => {
    const response = await fetch(
      `${emulator.url}/studio/jsonp/metadata/get/%E0%A4%A/?callback=cb&username=%ZZ`,
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/^cb\(\{"status":"error"/);
  });
});

describe('rejectPattern', () => {
  it.each([
    'abc',
    '.*',
    'Ada|Alan',
    '(GET|PUT|POST)+',
    '(?:ab|cd)*x',
    '[a-z]+@[a-z]+\\.com',
    '\\d{3}-\\d{4}',
    '(foo)?bar',
    '(?<year>\\d{4})',
    'a{2,1000}',
    '[0-9a-f]{24}',
    '.*[0-9a-f]{24}',
    'x.{0,16}.*.*y',
    '[(]+',
    'x{',
  ])('should accept %s', (pattern) => {
    expect(rejectPattern(pattern)).toBeUndefined();
  });

  it.each([
    ['(a+)+', /nested/],
    ['(a*)*', /nested/],
    ['(a|aa)*', /overlapping alternatives/],
    ['(a|)+', /overlapping alternatives/],
    ['((ab)*c)+', /nested/],
    ['(\\d|x)+', /overlapping alternatives/],
    ['(?:a+){2}', /nested/],
    ['(a?)+', /nested/],
    ['(a)\\1', /backreference/],
    ['(?<n>a)\\k<n>', /backreference/],
    ['(?=a)', /lookahead/],
    ['(?<!a)b', /lookbehind/],
    ['a{1001}', /repetition/],
    ['.{0,1000}.{0,1000}x', /count above 16/],
    ['\\d{17,}.*', /count above 16/],
    ['(?i:a).*', /groups/],
    ['a)(', /unbalanced/],
    ['x'.repeat(5001), /longer/],
  ])('should refuse %s', (pattern, reason) => {
    expect(rejectPattern(pattern)).toMatch(reason);
  });

  it('should never throw, whatever the pattern', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'()[]{}|*+?\\.^$a1,:<>=!-'.split('')), maxLength: 40 }),
        (pattern) => {
          const verdict = rejectPattern(pattern);
          expect(verdict === undefined || typeof verdict === 'string').toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
