/**
 * Test helper: the UTC texts an upstream may hold for one instant: `toISOString()`, milliseconds left out
 * when zero or padded with zeros, `+00:00` or `-00:00` for `Z`, lower-case `t` and `z`. Each reads back as
 * the instant itself.
 */

/** Every UTC spelling of the instant `millis` (since 1970) the tests try. */
export function utcSpellings(millis: number): string[] {
  const iso = new Date(millis).toISOString();
  const [seconds = '', fraction = ''] = iso.slice(0, -1).split('.');
  const texts = [
    iso,
    `${seconds}.${fraction}000+00:00`,
    `${seconds}.${fraction}-00:00`,
    iso.replace('T', 't').toLowerCase(),
  ];
  if (fraction === '000') texts.push(`${seconds}Z`, `${seconds}+00:00`);
  return texts;
}
