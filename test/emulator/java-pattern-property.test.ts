/**
 * The translator parses untrusted input: on any text it answers a translation that compiles (anchored, no
 * flags, as the emulator runs it) or a refusal, and never throws.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { translateJavaPattern } from '../../emulator/java-pattern/java-pattern.ts';

const javaish = fc.string({
  unit: fc.constantFrom(
    ...'aZ09 .|()[]{}^$*+?\\-&:<>=!,#'.split(''),
    ...['\\Q', '\\E', '\\p{', '\\P', '(?', '&&', '\\x{', '\\u', '\\0', '\\c', 'é', '😀', '\ud800', '\n'],
    ...['i', 's', 'm', 'u', 'x', 'd', 'L', 'Lu', 'IsGreek', '}', 'k<', 'R', 'Z', 'z', 'h', 'v', 'b'],
  ),
  maxLength: 30,
});

describe('translateJavaPattern', () => {
  it('answers a compiling translation or a refusal for any input, and never throws', () => {
    fc.assert(
      fc.property(fc.oneof(javaish, fc.string({ unit: 'binary', maxLength: 30 })), (pattern) => {
        const result = translateJavaPattern(pattern);
        if ('error' in result) {
          expect(result.error).not.toBe('');
          return;
        }
        expect(() => new RegExp(`^(?:${result.source})$`)).not.toThrow();
        expect(() => new RegExp(result.guardSource)).not.toThrow();
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses nesting too deep to parse instead of overflowing the stack', () => {
    const result = translateJavaPattern('('.repeat(100_000));
    expect('error' in result).toBe(true);
  });
});
