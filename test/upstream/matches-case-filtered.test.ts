/**
 * The run-time verification of `matches_case` in filtered reads: a criterion whose pattern is one escaped
 * literal (`equals`, a one-value `in`) answered with a record holding that text in another case is
 * `UPSTREAM_DIALECT_MISMATCH` naming `UPSTREAM_MATCHES_CASE`, never a wrong record handed out.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/errors/upstream-error.ts';
import { literalOf, verifyLiteralMatches } from '../../src/upstream/dialect/matches-case.ts';
import { escapeJavaRegex } from '../../src/upstream/pattern-guard/regex-escape.ts';
import { literalPattern } from '../../src/filters/literal-pattern.ts';

const sensitive = { matchesMode: 'regex', matchesCase: 'sensitive' } as const;
const equals = (fieldName: string, text: string) => [
  { fieldName, operator: 'matches', value: literalPattern(text, false) },
];

function thrown(run: () => void): UpstreamError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UpstreamError);
    return error as UpstreamError;
  }
  throw new Error('expected a mismatch');
}

describe('literalOf', () => {
  it('should read back every literal the gateway escapes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => literalOf(escapeJavaRegex(text)) === text),
    );
  });

  it.each(['a|b', '[Oo]pen', '[\\s\\S]*open[\\s\\S]*', 'a.b', '(?:)', 'x+', '\\d'])(
    'should not take %s for one text',
    (pattern) => {
      expect(literalOf(pattern)).toBeUndefined();
    },
  );
});

describe('verifyLiteralMatches', () => {
  it('should refuse an equals answered with a text that only contains it, naming UPSTREAM_MATCHES', () => {
    const error = thrown(() => {
      verifyLiteralMatches('getAll', equals('status', 'Open'), [{ _id: 'a', status: 'Reopened' }], sensitive);
    });
    expect(error.assumption).toEqual({ name: 'matches', setting: 'UPSTREAM_MATCHES' });
    expect(error.detail).not.toContain('Reopened');
  });

  it('should take an exact-mode value as the text itself, escapes and all', () => {
    const exact = { matchesMode: 'exact', matchesCase: 'sensitive' } as const;
    const criteria = [{ fieldName: 'code', operator: 'matches', value: 'a\\x41.b' }];
    expect(() => {
      verifyLiteralMatches('getAll', criteria, [{ _id: 'a', code: 'a\\x41.b' }], exact);
    }).not.toThrow();
    expect(
      thrown(() => {
        verifyLiteralMatches('getAll', criteria, [{ _id: 'a', code: 'A\\X41.B' }], exact);
      }).assumption?.name,
    ).toBe('matches_case');
  });

  it('should refuse an equals answered with another case of its text, at a dotted path too', () => {
    const error = thrown(() => {
      verifyLiteralMatches(
        'getAll',
        equals('address.city', 'Köln'),
        [{ _id: 'a', address: { city: 'KöLN' } }],
        sensitive,
      );
    });
    expect(error.kind).toBe('dialect_mismatch');
    expect(error.assumption).toEqual({ name: 'matches_case', setting: 'UPSTREAM_MATCHES_CASE' });
    expect(error.detail).toContain('set UPSTREAM_MATCHES_CASE=insensitive');
    expect(error.detail).not.toContain('KöLN');
  });

  it('should say no setting helps when (?-i) was already sent', () => {
    const insensitive = { matchesMode: 'find', matchesCase: 'insensitive' } as const;
    const error = thrown(() => {
      verifyLiteralMatches(
        'getObject',
        equals('status', 'Open'),
        [{ _id: 'a', status: 'OPEN' }],
        insensitive,
      );
    });
    expect(error.detail).toContain('ignores that flag');
  });

  it.each([
    ['the exact text', equals('status', 'Open'), { _id: 'a', status: 'Open' }],
    ['a number field', equals('total', '12'), { _id: 'a', total: 12 }],
    ['no field', equals('status', 'Open'), { _id: 'a' }],
    [
      'a caseInsensitive equals',
      [{ fieldName: 'status', operator: 'matches', value: literalPattern('Open', true) }],
      { _id: 'a', status: 'OPEN' },
    ],
    [
      'another operator',
      [{ fieldName: 'status', operator: 'equals', value: 'Open' }],
      { _id: 'a', status: 'OPEN' },
    ],
  ])('should let %s pass', (_, criteria, record) => {
    expect(() => {
      verifyLiteralMatches('getAll', criteria, [record], sensitive);
    }).not.toThrow();
  });
});
