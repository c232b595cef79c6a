/**
 * The charsets against a real JVM: the emulator's ISO-8859-1 answers are the bytes Java's encoder writes (`?`
 * for each character Latin-1 lacks, one for a surrogate pair), the gateway refuses in windows-1252 exactly what
 * Java's encoder cannot write, and the form login body reads back as sent through `URLDecoder`, as a servlet
 * reads it, in both request charsets.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeText } from '../../emulator/http/charset.ts';
import { checkAnswerable } from '../../src/upstream/dialect/charset/answerable-text.ts';
import { formBody } from '../../src/upstream/dialect/charset/request-bodies.ts';
import { javaLines, useJava } from '../support/java/java-pairs.ts';

useJava();

/** Any UTF-16 text (never empty: the Java helper's output is trimmed): BMP characters, pairs and lone surrogates, Latin-1 and windows-1252's own among them. */
const text = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 0x20, max: 0x2200 }).map((code) => String.fromCharCode(code)),
    fc.constantFrom('😀', '\ud800', '\udfff', '€', 'Œ', 'ß', '\u0081', '+', '%', '&', '='),
  ),
  minLength: 1,
  maxLength: 12,
});
const latin1 = fc.string({
  unit: fc.integer({ min: 0, max: 0xff }).map((c) => String.fromCharCode(c)),
  maxLength: 12,
});

const units = (value: string): string =>
  Array.from({ length: value.length }, (_, i) => value.charCodeAt(i).toString(16).padStart(4, '0')).join('');

function refuses(value: string): boolean {
  try {
    checkAnswerable('save', { value }, JSON.stringify({ value }), 'windows-1252');
    return false;
  } catch {
    return true;
  }
}

describe('charsets, as Java has them', () => {
  it("should encode ISO-8859-1 answers byte for byte as Java's encoder does", () => {
    // `text` is never empty: an empty sample is an empty last line, which the Java runner's output drops.
    const samples = fc.sample(text, 300);
    const java = javaLines(
      'charsets',
      samples.map((s) => ['latin1', s] as const),
    );
    expect(samples.map((s) => encodeText(s, 'iso-8859-1').toString('hex'))).toEqual(java);
  });

  it("should refuse in windows-1252 exactly what Java's encoder cannot write", () => {
    const samples = fc.sample(text, 300);
    const java = javaLines(
      'charsets',
      samples.map((s) => ['cp1252', s] as const),
    );
    expect(samples.map((s) => (refuses(s) ? '0' : '1'))).toEqual(java);
  });

  it('should send a form login body URLDecoder reads back as sent, in either request charset', () => {
    const utf8 = fc.sample(
      text.filter((s) => s.length > 0 && !/[\ud800-\udfff]/.test(s)),
      150,
    );
    const latin = fc.sample(
      latin1.filter((s) => s.length > 0),
      150,
    );
    const bodies = [
      ...utf8.map(
        (s) => ['form-utf8', formBody('loginForm', { p: s }, 'utf-8').body.slice('p='.length)] as const,
      ),
      ...latin.map(
        (s) =>
          ['form-latin1', formBody('loginForm', { p: s }, 'iso-8859-1').body.slice('p='.length)] as const,
      ),
    ];
    expect(javaLines('charsets', bodies)).toEqual([...utf8, ...latin].map(units));
  });
});
