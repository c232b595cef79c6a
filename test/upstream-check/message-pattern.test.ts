/**
 * The caller-error pattern the check recommends is learnt from the messages for two made-up names: it
 * matches the same message for any other name (a typo the gateway must answer `BAD_USER_INPUT`), however
 * long the sentence around the name, and not an unrelated message.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { createRequestChecks } from '../../src/upstream/client/request-checks.ts';
import { madeUpObjectNames } from '../../src/upstream-check/probes/probe-errors.ts';
import { learnMessagePattern } from '../../src/upstream-check/probes/message-pattern.ts';

const learnt = (first: string, second: string) => {
  const source = learnMessagePattern(first, second);
  return source === undefined ? undefined : new RegExp(source, 'i');
};

describe('learnMessagePattern', () => {
  const [a, b, c] = madeUpObjectNames();

  it('should match a third name in the middle of a sentence longer than 40 characters', () => {
    const say = (name: string) =>
      `Error while processing the request: the business object type '${name}' is not registered for this application (check the spelling)`;
    const pattern = learnt(say(a), say(b));
    expect(pattern?.test(say(c))).toBe(true);
    expect(pattern?.test(say('com.acme.Invoce'))).toBe(true);
    expect(pattern?.test('invalid token: log in again')).toBe(false);
    expect(pattern?.test('Error while processing the request: timeout')).toBe(false);
  });

  it.each([
    ['at the end', (name: string) => `No such object type: ${name}`],
    ['at the start', (name: string) => `${name} is not a known object type`],
    ['twice', (name: string) => `Unknown type ${name} (looked up ${name} in 3 registries)`],
    ['with its length', (name: string) => `type ${name} of ${name.length} characters is unknown`],
    ['upper-cased', (name: string) => `UNKNOWN OBJECT ${name.toUpperCase()}.`],
  ])('should match any name %s of the message', (_where, say) => {
    const pattern = learnt(say(a), say(b));
    expect(pattern?.test(say(c))).toBe(true);
    expect(pattern?.test(say('x'))).toBe(true);
  });

  it('should keep a message that does not name the name whole, literal', () => {
    expect(learnMessagePattern('No such collection (E4)', 'No such collection (E4)')).toBe(
      'No such collection \\(E4\\)',
    );
  });

  it('should learn nothing from messages that are only the name', () => {
    expect(learnMessagePattern(a, b)).toBeUndefined();
    expect(learnMessagePattern(`'${a}'`, `'${b}'`)).toBeUndefined();
  });

  it('should match any third name for any sentence around the names, or learn nothing', () => {
    const text = fc.string({ maxLength: 300 });
    fc.assert(
      fc.property(text, text, fc.stringMatching(/^[A-Za-z_][\w.]{0,40}$/), (before, after, other) => {
        const say = (name: string) => `${before}${name}${after}`;
        const pattern = learnt(say(a), say(b));
        if (pattern === undefined) return;
        expect(pattern.test(say(a)) && pattern.test(say(b)) && pattern.test(say(c))).toBe(true);
        expect(pattern.test(say(other))).toBe(true);
      }),
    );
  });
});

describe('madeUpObjectNames', () => {
  it('should be names the gateway sends, differing in their first and last characters in any case', () => {
    const checks = createRequestChecks(loadConfig({}).upstreamRequestLimits);
    for (let i = 0; i < 50; i++) {
      const names = madeUpObjectNames();
      for (const name of names) {
        expect(() => {
          checks.objectName('getAll', name);
        }).not.toThrow();
      }
      const ends = (at: (n: string) => string) => new Set(names.map((n) => at(n).toLowerCase())).size;
      expect(ends((n) => n.charAt(0))).toBe(3);
      expect(ends((n) => n.charAt(n.length - 1))).toBe(3);
    }
  });
});
