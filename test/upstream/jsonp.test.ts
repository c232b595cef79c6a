import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isUpstreamError } from '../../src/errors/upstream-error.ts';
import {
  CALLBACK_NAME_PATTERN,
  createCallbackNames,
  decodeJsonOrJsonp,
  decodeJsonp,
} from '../../src/upstream/client/answers/jsonp.ts';

type Wrap = (callback: string, json: string) => string;

/** Every wrapper form docs/design.md accepts, with the callback name. */
const WRAPPERS: Record<string, Wrap> = {
  plain: (cb, json) => `${cb}(${json})`,
  semicolon: (cb, json) => `${cb}(${json});`,
  whitespace: (cb, json) => ` \n\t${cb} ( \r\n${json}\n ) ;\n `,
  bom: (cb, json) => `\uFEFF${cb}(${json});`,
  comment: (cb, json) => `/**/ ${cb}(${json});`,
  bomAndComment: (cb, json) => `\uFEFF/**/${cb}(${json})`,
  guardSingle: (cb, json) => `typeof ${cb} === 'function' && ${cb}(${json});`,
  guardDouble: (cb, json) => `typeof ${cb} == "function" && ${cb}(${json})`,
  guardComment: (cb, json) => `/**/ typeof ${cb} === 'function' && ${cb}(${json});`,
  guardTight: (cb, json) => `typeof ${cb}==='function'&&${cb}(${json});`,
};
const NAMED_WRAPPERS = Object.entries(WRAPPERS);
const ALL_WRAPPERS: [string, Wrap][] = [
  ...NAMED_WRAPPERS,
  ['bare', (_cb, json) => json],
  ['bareWithWhitespace', (_cb, json) => `\uFEFF \n${json}\n`],
];

const callbackName = fc.stringMatching(CALLBACK_NAME_PATTERN).filter((name) => name !== 'typeof');
const lineSeparatorString = fc.string({
  unit: fc.constantFrom('\u2028', '\u2029', 'a', '"', '\\', ')', '(', ';'),
});
const jsonValue = fc.oneof(fc.jsonValue(), lineSeparatorString, fc.array(lineSeparatorString));
/** JSON text with `__proto__` keys (built as text: assigning `__proto__` on a JS object would set the prototype). */
const protoJson = fc
  .tuple(fc.jsonValue(), fc.jsonValue())
  .map(
    ([inner, other]) =>
      `{"__proto__":${JSON.stringify(inner)},"constructor":{"prototype":{"polluted":true}},"x":{"__proto__":{"polluted":true},"v":${JSON.stringify(other)}}}`,
  );

function expectBadResponse(run: () => unknown): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(isUpstreamError(caught) && caught.kind === 'bad_response').toBe(true);
}

function ownValue(object: unknown, key: string): unknown {
  return Object.getOwnPropertyDescriptor(object, key)?.value;
}

describe('decodeJsonp', () => {
  it.each(ALL_WRAPPERS)('should round-trip every JSON value through the %s form', (_name, wrap) => {
    fc.assert(
      fc.property(callbackName, jsonValue, fc.boolean(), (cb, value, pretty) => {
        const json = pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value);
        expect(JSON.stringify(decodeJsonp(wrap(cb, json), cb))).toBe(JSON.stringify(value));
      }),
    );
  });

  it('should keep U+2028 and U+2029 inside strings', () => {
    expect(decodeJsonp('cb_1({"s":"a\u2028b\u2029c"});', 'cb_1')).toEqual({ s: 'a\u2028b\u2029c' });
  });

  it.each(ALL_WRAPPERS)(
    'should keep __proto__ keys as data and never touch Object.prototype in the %s form',
    (_name, wrap) => {
      fc.assert(
        fc.property(callbackName, protoJson, (cb, json) => {
          const decoded = decodeJsonp(wrap(cb, json), cb);
          expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
          expect(Object.hasOwn(decoded as object, '__proto__')).toBe(true);
          expect(JSON.stringify(ownValue(decoded, '__proto__'))).toBe(
            JSON.stringify(ownValue(JSON.parse(json), '__proto__')),
          );
          expect(Object.getPrototypeOf(ownValue(decoded, 'x'))).toBe(Object.prototype);
          expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        }),
      );
    },
  );

  it.each(NAMED_WRAPPERS)('should reject another callback name in the %s form', (_name, wrap) => {
    fc.assert(
      fc.property(callbackName, callbackName, fc.jsonValue(), (expected, other, value) => {
        fc.pre(expected !== other);
        expectBadResponse(() => decodeJsonp(wrap(other, JSON.stringify(value)), expected));
      }),
    );
  });

  it('should reject a guard whose call names another function', () => {
    expectBadResponse(() => decodeJsonp("typeof cb_1 === 'function' && cb_2({});", 'cb_1'));
    expectBadResponse(() => decodeJsonp("typeof cb_2 === 'function' && cb_1({});", 'cb_1'));
  });

  it('should throw only bad_response UpstreamErrors for arbitrary text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' })), (text) => {
        try {
          decodeJsonp(text, 'cb_1');
        } catch (error) {
          expect(isUpstreamError(error) && error.kind === 'bad_response').toBe(true);
        }
      }),
    );
  });

  it('should throw only bad_response UpstreamErrors for damaged JSONP', () => {
    const damaged = fc
      .tuple(fc.constantFrom(...ALL_WRAPPERS.map(([, wrap]) => wrap)), fc.jsonValue(), fc.nat(), fc.string())
      .map(([wrap, value, at, junk]) => {
        const text = wrap('cb_1', JSON.stringify(value));
        const cut = at % (text.length + 1);
        return text.slice(0, cut) + junk + text.slice(cut + (at % 3));
      });
    fc.assert(
      fc.property(damaged, (text) => {
        try {
          decodeJsonp(text, 'cb_1');
        } catch (error) {
          expect(isUpstreamError(error) && error.kind === 'bad_response').toBe(true);
        }
      }),
    );
  });

  it.each([
    ['an HTML error page', '<!DOCTYPE html><html><body>500 Internal Error</body></html>'],
    ['an empty body', ''],
    ['a truncated call', 'cb_1({"status":"success","data":['],
    ['a missing closing parenthesis', 'cb_1({"a":1};'],
    ['two statements', 'cb_1({});cb_1({});'],
    ['text after the call', 'cb_1({}); alert(1)'],
    ['a second semicolon', 'cb_1({});;'],
    ['a call expression as argument', 'cb_1(alert(1))'],
    ['a JavaScript object literal', "cb_1({a: 'x'})"],
    ['a dotted callback', 'window.cb_1({})'],
    ['a line comment', 'cb_1({}) // done'],
    ['the guard without the call', "typeof cb_1 === 'function'"],
  ])('should reject %s', (_name, text) => {
    expectBadResponse(() => decodeJsonp(text, 'cb_1'));
  });

  it('should never quote the body in its error message', () => {
    const secret = 'tok-SECRET-do-not-echo';
    for (const text of [`{"token":"${secret}"`, `cb_2({"token":"${secret}"})`, `cb_1({"token":${secret}})`]) {
      try {
        decodeJsonp(text, 'cb_1');
        expect.unreachable();
      } catch (error) {
        expect(String(error)).not.toContain(secret);
      }
    }
  });
});

describe('decodeJsonOrJsonp', () => {
  it('should accept plain JSON and a wrapper with any valid callback name', () => {
    fc.assert(
      fc.property(callbackName, fc.jsonValue(), fc.constantFrom(...ALL_WRAPPERS), (cb, value, [, wrap]) => {
        const decoded = decodeJsonOrJsonp(wrap(cb, JSON.stringify(value)));
        expect(JSON.stringify(decoded)).toBe(JSON.stringify(value));
      }),
    );
  });

  it('should reject a callback name that is not an identifier', () => {
    expectBadResponse(() => decodeJsonOrJsonp(`${'a'.repeat(65)}({})`));
  });
});

describe('createCallbackNames', () => {
  it('should make names a JavaScript identifier pattern accepts, fresh every call', () => {
    const createCallbackName = createCallbackNames();
    const names = Array.from({ length: 1000 }, () => createCallbackName());
    for (const name of names) expect(name).toMatch(CALLBACK_NAME_PATTERN);
    expect(new Set(names).size).toBe(names.length);
  });

  it('should give two clients names that never meet', () => {
    const first = createCallbackNames();
    const second = createCallbackNames();
    const names = Array.from({ length: 100 }, () => [first(), second()]).flat();
    expect(new Set(names).size).toBe(names.length);
  });
});
