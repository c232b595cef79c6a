/**
 * Which cookies of a form login's `Set-Cookie` headers the gateway carries: those whose `Path` covers every
 * path the session's calls go to, whatever their names, attributes ignored but a deletion; never more than it
 * can seal; and an upstream answer that gives nothing to carry is a named dialect mismatch. Any header text is
 * taken without a throw (property).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isUpstreamError } from '../../src/errors/upstream-error.ts';
import {
  MAX_SESSION_COOKIE_LENGTH,
  requireSessionCookie,
  sessionCookiesOf,
} from '../../src/upstream/dialect/session-cookie.ts';

const LOGIN = '/app/login.jsp';
const CALLS = ['/studio/jsonp/', '/studio/jsonp/'];

const headerOf = (setCookie: string | string[] | undefined, login = LOGIN, calls = CALLS) =>
  sessionCookiesOf(setCookie, login, calls).header;

describe('the cookies a session carries', () => {
  it.each([
    ['a servlet session', 'JSESSIONID=ab12CD; Path=/; HttpOnly', 'JSESSIONID=ab12CD'],
    ['any name, any attributes', 'SID=x.y-z; Path=/; Secure; SameSite=Lax; Domain=example.com', 'SID=x.y-z'],
    ['a path above the calls', 'JSESSIONID=1; Path=/studio', 'JSESSIONID=1'],
    ['a path with a trailing slash', 'JSESSIONID=1; Path=/studio/jsonp/', 'JSESSIONID=1'],
    ['a path that is not the calls’', 'JSESSIONID=1; Path=/app', undefined],
    ['a path that is a prefix of a segment only', 'JSESSIONID=1; Path=/stud', undefined],
    ['no Path: the login page’s directory, /app', 'JSESSIONID=1', undefined],
    ['a cookie deleted (Max-Age=0)', 'JSESSIONID=1; Path=/; Max-Age=0', undefined],
    ['no name', 'just-a-value; Path=/', undefined],
    ['a control character', 'JSESSIONID=a\u0001b; Path=/', undefined],
    ['nothing', undefined, undefined],
  ])('%s', (_case, setCookie, expected) => {
    expect(headerOf(setCookie)).toBe(expected);
  });

  it('should keep every cookie that covers the calls, a later one of a name replacing an earlier', () => {
    const setCookie = [
      'JSESSIONID=old; Path=/',
      'route=node7; Path=/',
      'pref=dark; Path=/app',
      'JSESSIONID=new; Path=/; HttpOnly',
    ];
    expect(headerOf(setCookie)).toBe('route=node7; JSESSIONID=new');
  });

  it('should forget a cookie the login deletes after setting it', () => {
    expect(headerOf(['JSESSIONID=1; Path=/', 'JSESSIONID=; Path=/; Max-Age=0'])).toBeUndefined();
  });

  it('should take a cookie without Path under a base address whose login shares the calls’ prefix', () => {
    // RFC 6265's default path is the login page's directory: /ctx/app, which covers nothing under /ctx/studio.
    expect(headerOf('JSESSIONID=1', '/ctx/app/login.jsp', ['/ctx/studio/jsonp/'])).toBeUndefined();
    expect(headerOf('JSESSIONID=1; Path=/ctx', '/ctx/app/login.jsp', ['/ctx/studio/jsonp/'])).toBe(
      'JSESSIONID=1',
    );
    // Reads and writes on two addresses: the cookie must cover both.
    expect(
      headerOf('JSESSIONID=1; Path=/r', LOGIN, ['/r/studio/jsonp/', '/w/studio/jsonp/']),
    ).toBeUndefined();
  });

  it('should take any header text without throwing, and keep only name=value pairs', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 200 }), { maxLength: 6 }), (setCookie) => {
        const { header } = sessionCookiesOf(setCookie, LOGIN, CALLS);
        if (header === undefined) return;
        for (const pair of header.split('; ')) expect(pair).toMatch(/^[^=;]+=[^;]*$/);
      }),
    );
  });
});

describe('a form login with nothing to carry', () => {
  function mismatchOf(setCookie: string | string[] | undefined): { detail: string; assumption: unknown } {
    try {
      requireSessionCookie(sessionCookiesOf(setCookie, LOGIN, CALLS), CALLS);
    } catch (error) {
      if (isUpstreamError(error) && error.kind === 'dialect_mismatch')
        return { detail: error.detail, assumption: error.assumption };
      throw error;
    }
    throw new Error('expected a dialect mismatch');
  }

  it('should be UPSTREAM_DIALECT_MISMATCH naming login_session, and cookie names but never values', () => {
    expect(mismatchOf(undefined)).toEqual({
      detail: 'the form login answered no token and no session cookie.',
      assumption: { name: 'login_session', setting: '–' },
    });
    const elsewhere = mismatchOf('JSESSIONID=s3cr3tValue; Path=/app');
    expect(elsewhere.detail).toContain('(JSESSIONID)');
    expect(elsewhere.detail).toContain('/studio/jsonp/');
    expect(elsewhere.detail).not.toContain('s3cr3tValue');
    const huge = mismatchOf(`JSESSIONID=${'v'.repeat(MAX_SESSION_COOKIE_LENGTH)}; Path=/`);
    expect(huge.detail).toContain(`longer than ${MAX_SESSION_COOKIE_LENGTH} characters`);
  });

  it('should answer the cookie to carry otherwise', () => {
    expect(requireSessionCookie(sessionCookiesOf('JSESSIONID=abc; Path=/', LOGIN, CALLS), CALLS)).toBe(
      'JSESSIONID=abc',
    );
  });
});
