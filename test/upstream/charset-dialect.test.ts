/**
 * The charsets of the wire, both ways (`answer_charset`, `request_charset`): the `charset` of a Content-Type,
 * answers decoded by it, and request bodies any servlet reads right (ASCII-only JSON, the form login in the
 * charset it declares).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  answerCharsetOf,
  charsetParameterOf,
  decodeAnswer,
} from '../../src/upstream/dialect/charset/answer-charset.ts';
import { asciiJson, formBody } from '../../src/upstream/dialect/charset/request-bodies.ts';
import { checkAnswerable } from '../../src/upstream/dialect/charset/answerable-text.ts';
import { isUpstreamError } from '../../src/errors/upstream-error.ts';
import { thrownBy } from '../support/thrown-by.ts';

/** Seven-bit text: every code unit below U+0080. */
const ASCII_ONLY = /^[\p{ASCII}]*$/u;

const failure = (run: () => unknown): unknown => thrownBy(run);

describe('the charset a Content-Type names', () => {
  it.each([
    ['application/javascript; charset=ISO-8859-1', 'iso-8859-1'],
    ['application/javascript;charset=utf-8', 'utf-8'],
    ['application/json; Charset="UTF-8"', 'utf-8'],
    ['text/javascript; q=1; CHARSET = windows-1252 ', 'windows-1252'],
    ['text/plain; name="a;charset=x"; charset=latin1', 'latin1'],
    ['text/plain; name="a\\"b"; charset=cp1252', 'cp1252'],
    ['application/javascript', undefined],
    ['application/javascript; charset=', undefined],
    ['application/javascript; charset', undefined],
    ['application/javascript; charset="utf-8', undefined],
    [undefined, undefined],
  ])('should read %j as %j', (contentType, charset) => {
    expect(charsetParameterOf(contentType)).toBe(charset);
  });

  it('should find any charset token, quoted or not, in any case, among other parameters', () => {
    const token = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9!#$%&'*+.^_`|~-]{0,20}$/);
    const otherParameter = fc
      .tuple(fc.stringMatching(/^[a-bd-z][a-z]{0,8}$/), fc.stringMatching(/^[a-z0-9;=" ]{0,10}$/))
      .map(([name, value]) => `${name}="${value.replaceAll('"', '\\"')}"`);
    fc.assert(
      fc.property(
        token,
        fc.boolean(),
        fc.array(otherParameter, { maxLength: 3 }),
        fc.array(otherParameter, { maxLength: 3 }),
        fc.constantFrom(';', '; ', ' ;\t'),
        (charset, quoted, before, after, separator) => {
          const value = quoted ? `"${charset}"` : charset;
          const header = ['application/javascript', ...before, `cHaRsEt=${value}`, ...after].join(separator);
          expect(charsetParameterOf(header)).toBe(charset.toLowerCase());
        },
      ),
    );
  });

  it('should never throw on any header an upstream sends', () => {
    fc.assert(
      // The characters the parser steers by, and others: where a hand-written parser breaks.
      fc.property(
        fc.string({
          unit: fc.constantFrom(
            ';',
            '=',
            '"',
            ' ',
            '\t',
            '\\',
            'c',
            'h',
            'a',
            'r',
            's',
            'e',
            't',
            'C',
            'S',
            'é',
            '/',
          ),
        }),
        (header) => {
          const charset = charsetParameterOf(header);
          expect(charset === undefined || typeof charset === 'string').toBe(true);
        },
      ),
    );
  });

  it.each([
    ['UTF-8', 'utf-8'],
    ['US-ASCII', 'utf-8'],
    ['ISO-8859-1', 'iso-8859-1'],
    ['ISO8859_1', 'iso-8859-1'],
    ['Latin1', 'iso-8859-1'],
    ['windows-1252', 'windows-1252'],
    ['Cp1252', 'windows-1252'],
    ['Shift_JIS', undefined],
    ['UTF-16', undefined],
  ])('should know %s as %s', (label, charset) => {
    expect(answerCharsetOf(label)).toBe(charset);
  });
});

describe('an answer decoded by the charset it names', () => {
  const societe = 'Société Générale';
  const latin1 = Buffer.from(societe, 'latin1');
  const utf8 = Buffer.from(societe, 'utf8');

  it.each([
    ['application/javascript; charset=ISO-8859-1', latin1, 'utf-8'],
    ['application/javascript;charset="iso-8859-1"', latin1, 'utf-8'],
    ['application/javascript; charset=windows-1252', latin1, 'utf-8'],
    ['application/javascript; charset=UTF-8', utf8, 'iso-8859-1'],
    ['application/javascript', latin1, 'iso-8859-1'],
    ['application/javascript', utf8, 'utf-8'],
    [undefined, latin1, 'windows-1252'],
  ] as const)('should read %j right (fallback %s)', (contentType, bytes, fallback) => {
    expect(decodeAnswer(bytes, contentType, fallback, 'getAll')).toBe(societe);
  });

  it('should read windows-1252 characters Latin-1 lacks (€, curly quotes) in a windows-1252 answer', () => {
    const bytes = Buffer.from([0x80, 0x20, 0x93, 0x61, 0x94]);
    expect(decodeAnswer(bytes, 'text/javascript; charset=Cp1252', 'utf-8', 'getAll')).toBe('€ “a”');
    // ISO-8859-1 is the real Latin-1, as Java writes it: those bytes are C1 controls there.
    expect(decodeAnswer(bytes, 'text/javascript; charset=ISO-8859-1', 'utf-8', 'getAll')).toBe(
      '\u0080 \u0093a\u0094',
    );
  });

  it('should name an unknown charset as a dialect mismatch of answer_charset', () => {
    const error = failure(() =>
      decodeAnswer(utf8, 'application/javascript; charset=Shift_JIS', 'utf-8', 'getAll'),
    );
    expect(error).toMatchObject({
      kind: 'dialect_mismatch',
      operation: 'getAll',
      assumption: { name: 'answer_charset', setting: 'UPSTREAM_ANSWER_CHARSET' },
    });
    expect((error as Error).message).toContain('"shift_jis"');
  });

  it('should refuse a Latin-1 answer read as UTF-8 rather than show U+FFFD for every accent', () => {
    const unlabelled = failure(() => decodeAnswer(latin1, 'application/javascript', 'utf-8', 'getAll'));
    expect(unlabelled).toMatchObject({ kind: 'dialect_mismatch', assumption: { name: 'answer_charset' } });
    expect((unlabelled as Error).message).toMatch(/names no charset and is not UTF-8/);
    const mislabelled = failure(() =>
      decodeAnswer(latin1, 'application/javascript; charset=utf-8', 'utf-8', 'getAll'),
    );
    expect(isUpstreamError(mislabelled) && mislabelled.kind).toBe('dialect_mismatch');
    expect((mislabelled as Error).message).toMatch(/labelled charset="utf-8" but is not UTF-8/);
  });

  it('should keep a byte-order mark for the JSONP decoder, as before', () => {
    expect(decodeAnswer(Buffer.from('\uFEFFcb({});'), undefined, 'utf-8', 'getAll')).toBe('\uFEFFcb({});');
  });

  it('should decode any text encoded in a charset it names back to that text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }),
        fc.string({ unit: fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)) }),
        (text, latin) => {
          expect(decodeAnswer(Buffer.from(text, 'utf8'), 'x/y; charset=utf-8', 'iso-8859-1', 'getAll')).toBe(
            text,
          );
          expect(
            decodeAnswer(Buffer.from(latin, 'latin1'), 'x/y; charset=iso-8859-1', 'utf-8', 'getAll'),
          ).toBe(latin);
        },
      ),
    );
  });
});

describe('JSON bodies, ASCII-only', () => {
  it('should escape every character past U+007F, a character past U+FFFF as two escapes', () => {
    expect(asciiJson({ a: 'Grüße aus Köln', b: 'Ελ', c: '😀' })).toBe(
      '{"a":"Gr\\u00fc\\u00dfe aus K\\u00f6ln","b":"\\u0395\\u03bb","c":"\\ud83d\\ude00"}',
    );
  });

  it('should be ASCII and parse back to what JSON.stringify would have sent, for any value', () => {
    // Any character, lone surrogates and the ones JSON escapes itself among them.
    const text = fc.string({
      unit: fc.oneof(
        fc.constantFrom('\ud800', '\udfff', '"', '\\', '\u0000', '\u007f', '\u0080', '\u2028', '\uffff'),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
      ),
    });
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(text, tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        const sent = asciiJson(v);
        expect(sent).toMatch(ASCII_ONLY);
        expect(JSON.parse(sent)).toEqual(JSON.parse(JSON.stringify(v)));
      }),
    );
  });

  it('should read the same whether a servlet decodes the bytes as UTF-8 or as ISO-8859-1', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' })), (v) => {
        const bytes = Buffer.from(asciiJson(v), 'utf8');
        expect(JSON.parse(bytes.toString('latin1'))).toEqual(JSON.parse(bytes.toString('utf8')));
      }),
    );
  });
});

describe('the form login body', () => {
  /** What a servlet does with a form body whose charset is ISO-8859-1: percent-escapes are Latin-1 bytes. */
  function readLatin1Form(body: string): Record<string, string> {
    const fields: Record<string, string> = {};
    for (const pair of body.split('&')) {
      const [name = '', value = ''] = pair
        .split('=')
        .map((part) =>
          part
            .replaceAll('+', ' ')
            .replace(/%([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        );
      fields[name] = value;
    }
    return fields;
  }

  it('should be percent-encoded UTF-8 declared as such by default', () => {
    const form = formBody('loginForm', { username: 'jörg', password: 'p&w=d ü€' }, 'utf-8');
    expect(form.contentType).toBe('application/x-www-form-urlencoded; charset=UTF-8');
    expect(form.body).toBe('username=j%C3%B6rg&password=p%26w%3Dd+%C3%BC%E2%82%AC');
  });

  it('should be percent-encoded Latin-1 declared as such with UPSTREAM_REQUEST_CHARSET=iso-8859-1', () => {
    const form = formBody('loginForm', { username: 'jörg', password: 'p&w=d ü' }, 'iso-8859-1');
    expect(form.contentType).toBe('application/x-www-form-urlencoded; charset=ISO-8859-1');
    expect(form.body).toBe('username=j%F6rg&password=p%26w%3Dd+%FC');
  });

  it('should read back as sent for any Latin-1 text, as a servlet reads it', () => {
    const latin = fc.string({ unit: fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)) });
    fc.assert(
      fc.property(latin, latin, (username, password) => {
        const { body } = formBody('loginForm', { username, password }, 'iso-8859-1');
        expect(body).toMatch(ASCII_ONLY);
        expect(readLatin1Form(body)).toEqual({ username, password });
      }),
    );
  });

  it('should refuse a character Latin-1 lacks as the caller’s mistake, naming the field, never the value', () => {
    const error = failure(() =>
      formBody('loginForm', { username: 'demo', password: 'secret€' }, 'iso-8859-1'),
    );
    expect(error).toMatchObject({ kind: 'invalid_input', blame: 'caller', argument: 'password' });
    expect((error as Error).message).not.toContain('secret');
    expect((error as Error).message).toMatch(/ISO-8859-1/);
  });
});

describe('text the upstream cannot give back', () => {
  const check = (data: Record<string, unknown>, charset: 'utf-8' | 'iso-8859-1' | 'windows-1252') => {
    checkAnswerable('save', data, JSON.stringify(data), charset);
  };

  it('should let anything through while the upstream answers UTF-8', () => {
    expect(() => {
      check({ a: 'Ελληνικά 😀' }, 'utf-8');
    }).not.toThrow();
  });

  it.each([
    ['iso-8859-1', 'Grüße, Société, ñ'],
    ['windows-1252', 'Grüße, € “quoted” – Œuvre'],
  ] as const)('should let text %s holds through', (charset, text) => {
    expect(() => {
      check({ a: text, n: 1, list: [text] }, charset);
    }).not.toThrow();
  });

  it.each([
    ['iso-8859-1', '€'],
    ['iso-8859-1', 'Ελληνικά'],
    ['windows-1252', 'Ω'],
    ['windows-1252', '\u0081'],
    ['windows-1252', '😀'],
    ['iso-8859-1', '\ud800'],
    ['windows-1252', '\udfff'],
  ] as const)('should refuse in %s %j as the caller’s, naming the field', (charset, text) => {
    const error = failure(() => {
      check({ ok: 'fine', nested: { list: ['x', `a${text}b`] } }, charset);
    });
    expect(error).toMatchObject({ kind: 'invalid_input', blame: 'caller', argument: 'data.nested.list.1' });
    expect((error as Error).message).toMatch(/cannot give back/);
  });

  it('should let through any text windows-1252 encodes, and refuse any it does not', () => {
    const unit = fc.integer({ min: 0, max: 0x2200 }).map((code) => String.fromCharCode(code));
    fc.assert(
      fc.property(fc.string({ unit, minLength: 1 }), (text) => {
        // What Java's Cp1252 encoder can write is what decodes back from one byte in windows-1252.
        const encodable = Array.from(text).every((char) =>
          Array.from({ length: 256 }, (_, byte) => byte).some(
            (byte) =>
              ![0x81, 0x8d, 0x8f, 0x90, 0x9d].includes(byte) &&
              new TextDecoder('windows-1252').decode(Uint8Array.of(byte)) === char,
          ),
        );
        const refused = (() => {
          try {
            check({ text }, 'windows-1252');
            return false;
          } catch {
            return true;
          }
        })();
        expect(refused).toBe(!encodable);
      }),
      { numRuns: 200 },
    );
  });
});
