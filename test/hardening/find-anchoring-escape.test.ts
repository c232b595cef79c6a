/**
 * Under `UPSTREAM_MATCHES=find` the gateway wraps a caller's `matches` pattern in `\A(?:…)\z`: a caller who
 * closes the group early (`a)|(?:b`) would take the anchors off their own alternative and read values the
 * anchors were there to keep exact. Such patterns are refused by the pattern guard (unbalanced groups,
 * `\Q…\E`, inline flags, comments mode), and every pattern it accepts stays anchored: the part-matching
 * reading of the anchored pattern agrees with the whole-matching reading of the pattern.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileJavaPattern } from '../../emulator/operations/filter-command.ts';
import { compileCriteria } from '../../src/filters/compile-criteria.ts';
import { FilterError } from '../../src/errors/filter-error.ts';
import { anchorForFind } from '../../src/upstream/dialect/matches-pattern.ts';
import { defaultPatternGuard } from '../support/pattern-guard.ts';

const guard = defaultPatternGuard();
const at = { value: 'filter.value', values: 'filter.values', caseInsensitive: 'filter.caseInsensitive' };

/**
 * The criterion value the gateway sends for a caller's pattern (the compiler passes it on, the client
 * anchors it), or `undefined` when it refuses it.
 */
async function sent(pattern: string): Promise<string | undefined> {
  try {
    const [criterion] = await compileCriteria([{ fieldName: 'f', operator: 'matches', value: pattern, at }], {
      matchesMode: 'find',
      guard,
      argumentName: 'filter',
    });
    return criterion === undefined ? undefined : anchorForFind(criterion.value);
  } catch (error) {
    if (error instanceof FilterError) return undefined;
    throw error;
  }
}

const TEXTS = ['', 'a', 'b', 'ab', 'ba', 'xab', 'abx', 'a\n', '\nb', 'x'];

describe('escaping the find anchoring', () => {
  it.each(['a)|(?:b', 'a)|(', ')|.*|(', '\\Qa)|(?:b\\E', '(?x)a)|(?:b', 'a)\\z|\\A(?:b', '(?:a))|((?:b'])(
    'should refuse %s, which would close the anchoring group',
    async (pattern) => {
      expect(await sent(pattern)).toBeUndefined();
    },
  );

  it('should keep every accepted pattern anchored to the whole value', async () => {
    let compared = 0;
    const piece = fc.constantFrom('a', 'b', '(', ')', '|', '(?:', '.', '*', '?', '\\z', '\\A', '$', '^', 'x');
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 7 }), async (pieces) => {
        const pattern = pieces.join('');
        const value = await sent(pattern);
        if (value === undefined) return;
        // An alternation goes out grouped, whatever the mode (an upstream may wrap it itself).
        expect(value).toBe(anchorForFind(pattern.includes('|') ? `(?:${pattern})` : pattern));
        const whole = compileJavaPattern(pattern, false);
        const part = compileJavaPattern(value, true);
        if (typeof whole === 'string' || typeof part === 'string') return; // the emulator does not run it
        compared += 1;
        for (const text of TEXTS)
          expect(part.test(text), `${pattern} on ${JSON.stringify(text)}`).toBe(whole.test(text));
      }),
      { numRuns: 400, seed: 22 },
    );
    // Not vacuous: many generated patterns were accepted and compared.
    expect(compared).toBeGreaterThan(50);
  });
});
