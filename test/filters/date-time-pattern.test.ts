/**
 * A typed `DateTime` filter's pattern matches a stored instant's UTC text exactly when it is the filter's
 * instant, to the millisecond, however the milliseconds and the UTC designator are spelled.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dateTimePattern } from '../../src/filters/date-time-pattern.ts';
import { utcSpellings } from '../support/date-time-spellings.ts';

const matches = (pattern: string, text: string) => new RegExp(`^(?:${pattern})$`).test(text);

/** Instants from year 0 to 9999, and some a millisecond, a second or an hour apart. */
const instant = fc.oneof(
  fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }),
  fc.constantFrom(0, 1, 1000, 1_705_276_800_000, 1_705_276_800_001, 1_705_276_801_000, 1_705_280_400_000),
);

describe('dateTimePattern', () => {
  it('should match a UTC spelling of an instant if and only if it is the filter instant', () => {
    fc.assert(
      fc.property(instant, instant, (filter, stored) => {
        const pattern = dateTimePattern(new Date(filter).toISOString());
        for (const text of utcSpellings(stored)) {
          expect(Date.parse(text), text).toBe(stored);
          expect(matches(pattern, text), `${pattern} against ${text}`).toBe(stored === filter);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    [
      '2024-01-15T00:00:00.000Z',
      [
        '2024-01-15T00:00:00Z',
        '2024-01-15T00:00:00.000Z',
        '2024-01-15t00:00:00.0z',
        '2024-01-15T00:00:00+00:00',
      ],
      ['2024-01-15T00:00:00.001Z', '2024-01-15T00:00:01Z', '2024-01-15', '2024-01-15T02:00:00+02:00'],
    ],
    [
      '2024-01-15T10:20:30.500Z',
      ['2024-01-15T10:20:30.5Z', '2024-01-15T10:20:30.500Z', '2024-01-15T10:20:30.500000-00:00'],
      ['2024-01-15T10:20:30Z', '2024-01-15T10:20:30.05Z', '2024-01-15T10:20:30.501Z'],
    ],
  ])('should compile %s to a pattern matching its UTC spellings only', (iso, hits, misses) => {
    const pattern = dateTimePattern(iso);
    for (const hit of hits) expect(matches(pattern, hit), hit).toBe(true);
    for (const miss of misses) expect(matches(pattern, miss), miss).toBe(false);
  });

  it('should throw for a text toISOString cannot have written', () => {
    expect(() => dateTimePattern('2024-01-15T00:00:00+02:00')).toThrow(RangeError);
  });
});
