/**
 * A dead upstream session in every form a servlet answers it (401, 403, a redirect to its login page, the
 * login page itself, a text about the session) is `unauthenticated`, which ends the gateway session, and
 * never an unreadable answer counted as ill health; a lock-out at login is its own error, not a wrong password.
 */
import { describe, expect, it } from 'vitest';
import { countsAgainstUpstream } from '../../src/errors/upstream-error.ts';
import { fromUpstreamError } from '../../src/errors/from-upstream-error.ts';
import { deadSessionBody } from '../../src/upstream/dialect/dead-session.ts';
import { fromHttpStatus } from '../../src/upstream/client/transport-error.ts';
import { toStatusError } from '../../src/upstream/client/answers/parse-answer.ts';

const AUTH = /token|credential|unauthori[sz]ed|session/i;
const patterns = { auth: AUTH, forbidden: /not allowed/i, callerInput: /invalid/i };

describe('a dead upstream session', () => {
  it.each([
    [401, undefined],
    [403, undefined],
    [302, 'http://upstream.example/app/login.jsp'],
    [302, '/j_security_check'],
    [303, 'https://sso.example/cas/login?service=x'],
  ])('should read HTTP %s (to %s) as unauthenticated, not ill health', (status, location) => {
    const error = fromHttpStatus(status, 'getAll', location);
    expect(error.kind).toBe('unauthenticated');
    expect(countsAgainstUpstream(error)).toBe(false);
  });

  it('should not read a redirect elsewhere as the session’s end', () => {
    expect(fromHttpStatus(302, 'getAll', 'http://upstream.example/studio/v2/getAll').kind).not.toBe(
      'unauthenticated',
    );
  });

  it('should read a login page served with 200, and a plain text about the session, as unauthenticated', () => {
    const page =
      '<!DOCTYPE html><html><head><title>Log in</title></head><body><form action="j_security_check">' +
      '<input name="j_username"><input type="password" name="j_password"></form></body></html>';
    expect(deadSessionBody(page, 'text/html;charset=ISO-8859-1', AUTH, 'getObject')?.kind).toBe(
      'unauthenticated',
    );
    expect(deadSessionBody('Your session has expired.', 'text/plain', AUTH, 'getAll')?.kind).toBe(
      'unauthenticated',
    );
  });

  it('should leave an error page, another callback’s JSONP and long texts unreadable, as before', () => {
    const errorPage = '<html><head><title>500 Internal Server Error</title></head><body>NPE</body></html>';
    expect(deadSessionBody(errorPage, 'text/html', AUTH, 'getAll')).toBeUndefined();
    expect(
      deadSessionBody('other({"status":"success","token":"x"})', 'application/javascript', AUTH, 'loginJson'),
    ).toBeUndefined();
    expect(deadSessionBody(`session ${'x'.repeat(2000)}`, 'text/plain', AUTH, 'getAll')).toBeUndefined();
  });
});

describe('a lock-out at login', () => {
  it.each(['User account is locked', 'Account disabled by administrator', 'You are locked out'])(
    'should read "%s" as ACCOUNT_LOCKED, not a wrong password',
    (message) => {
      const error = toStatusError(message, undefined, { operation: 'loginJson', patterns, secrets: [] });
      expect(error.kind).toBe('account_locked');
      expect(fromUpstreamError(error).extensions).toMatchObject({ code: 'ACCOUNT_LOCKED', blame: 'caller' });
    },
  );

  it('should still read a wrong password as a rejected login', () => {
    const error = toStatusError('Invalid username or password', undefined, {
      operation: 'loginForm',
      patterns,
      secrets: [],
    });
    expect(error.kind).toBe('unauthenticated');
  });
});
