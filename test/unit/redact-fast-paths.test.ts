import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createObjectRedactor,
  createTextRedactor,
  REDACTED,
  redactObject,
} from '../../src/observability/redact.ts';

// The logger skips work on lines and objects that hold nothing to redact; these check that the shortcuts
// never let a credential through that the full redaction would have caught.

const keys = fc.oneof(
  fc.constantFrom(
    'password',
    'apiToken',
    'Authorization',
    'x-api-token',
    'sessionSecret',
    'cookie',
    'api_key',
  ),
  fc.constantFrom('operation', 'status', 'durationMs', 'outcome', 'url', 'nested'),
  fc.string({ maxLength: 12 }),
);
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(keys, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** The same word with each letter's case chosen at random. */
function anyCase(word: string): fc.Arbitrary<string> {
  return fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((upper) =>
      Array.from({ length: word.length }, (_, i) =>
        upper[i] === true ? word.charAt(i).toUpperCase() : word.charAt(i),
      ).join(''),
    );
}

describe('log redaction shortcuts', () => {
  it('should redact exactly what redactObject redacts when verdicts are remembered', () => {
    const remembered = createObjectRedactor();
    fc.assert(
      fc.property(jsonValue, (value) => {
        expect(remembered(value)).toEqual(redactObject(value));
      }),
    );
  });

  it('should leave no credential value in a line, whatever the case of its key', () => {
    const redact = createTextRedactor([]);
    const key = fc.constantFrom(
      'password',
      'passwd',
      'token',
      'api_token',
      'refreshToken',
      'secret',
      'pwd',
      'pass',
      'jwt',
      'session',
      'sessionId',
      'JSESSIONID',
      'key',
      'api_key',
      'x-api-key',
      'client_secret',
    );
    fc.assert(
      fc.property(
        key.chain(anyCase),
        fc.stringMatching(/^[a-z0-9]{6,12}$/),
        fc.constantFrom('json', 'query'),
        (name, value, form) => {
          const credential = `cred-${value}`;
          const line =
            form === 'json'
              ? `{"msg":"upstream said","${name}":"${credential}"}`
              : `GET /x?user=demo&${name}=${credential}`;
          const out = redact(line);
          expect(out).not.toContain(credential);
          expect(out).toContain(REDACTED);
        },
      ),
    );
  });

  it('should leave a line without credentials unchanged', () => {
    const redact = createTextRedactor(['the-session-secret-0123456789']);
    const line = '{"level":30,"operation":"Object","status":200,"outcome":"ok","msg":"graphql request"}';
    expect(redact(line)).toBe(line);
  });
});
