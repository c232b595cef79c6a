/**
 * The pre-parse comment count against graphql-js's own lexer: for any document the lexer reads, the bytes
 * counted are exactly those of the comment tokens it produces, so a `#` inside a string or a block string
 * is never mistaken for a comment, and no comment escapes the count.
 */
import fc from 'fast-check';
import { Lexer, Source, TokenKind, type Token } from 'graphql';
import { describe, expect, it } from 'vitest';
import { commentBytes } from '../../src/limits/comment-bytes.ts';

/** What graphql-js's lexer counts as comments: the UTF-8 bytes of each comment token's text. */
function lexedCommentBytes(text: string): number {
  const lexer = new Lexer(new Source(text));
  while (lexer.advance().kind !== TokenKind.EOF) {
    // Comments are skipped by advance() but linked into the token list.
  }
  let total = 0;
  for (let token: Token | null = lexer.token; token !== null; token = token.prev) {
    if (token.kind === TokenKind.COMMENT) total += Buffer.byteLength(text.slice(token.start, token.end));
  }
  return total;
}

const anyText = fc.string({ unit: 'grapheme', maxLength: 12 }).map((text) => text.replace(/[\r\n]/g, ' '));
const piece = fc.oneof(
  fc.constantFrom(
    'query',
    'Q',
    '{',
    '}',
    '(',
    ')',
    '$id',
    ':',
    'ID!',
    '__typename',
    '@include',
    '...',
    ' ',
    '\n',
    '\r\n',
    ',',
  ),
  anyText.map((text) => `#${text}\n`),
  anyText.map((text) => `"${text.replace(/["\\]/g, '')}#"`),
  anyText.map((text) => `"\\"#${text.replace(/["\\]/g, '')}"`),
  anyText.map((text) => `"""${text.replace(/"|\\/g, '')}\n#${text.replace(/"|\\/g, '')}"""`),
  anyText.map((text) => `"""a\\"""#${text.replace(/"|\\/g, '')}"""`),
);

describe('commentBytes', () => {
  it.each([
    ['query Q { a }', 0],
    ['# one\nquery Q { a }', 5],
    ['query Q { a(s: "#no") }', 0],
    ['query Q { a(s: """\n# no\n""") }', 0],
    ['query Q { a(s: """\\"""# no""") } # yes', 5],
    ['#é\r\n{ a }', 3],
    ['"\\"#" #x', 2],
  ])('should count %j as %i bytes', (text, bytes) => {
    expect(commentBytes(text)).toBe(bytes);
    expect(lexedCommentBytes(text)).toBe(bytes);
  });

  it('should count exactly what graphql-js lexes as comments', () => {
    let lexed = 0;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = pieces.join(' ');
        let expected: number;
        try {
          expected = lexedCommentBytes(text);
        } catch {
          return; // Text the lexer refuses is the parser's to refuse.
        }
        lexed++;
        expect(commentBytes(text)).toBe(expected);
      }),
      { numRuns: 500 },
    );
    // The generator makes documents the lexer reads, or the property says nothing.
    expect(lexed).toBeGreaterThan(250);
  });

  it('should never throw and never count more than the text holds', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const bytes = commentBytes(text);
        expect(bytes).toBeGreaterThanOrEqual(0);
        expect(bytes).toBeLessThanOrEqual(Buffer.byteLength(text));
      }),
    );
  });
});
