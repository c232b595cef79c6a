/**
 * What a test holds an `UPSTREAM_DIALECT_MISMATCH` error's `extensions` to (with `toMatchObject`): the
 * gateway's own fault (a setting that does not fit the upstream), the `assumption` found wrong and the
 * `setting` to change, with `more` fields beside them.
 */
export function dialectMismatch(
  assumption: string,
  setting: string,
  more: Record<string, unknown> = {},
): Record<string, unknown> {
  return { code: 'UPSTREAM_DIALECT_MISMATCH', blame: 'gateway', assumption, setting, ...more };
}
