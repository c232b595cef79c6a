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

/**
 * {@link dialectMismatch} of a write the upstream applied before the mismatch was found: `applied: true` and
 * the written object's `objectId` (a value or a matcher), which tell a front end not to write it again.
 */
export function appliedWriteMismatch(
  assumption: string,
  setting: string,
  objectId: unknown,
): Record<string, unknown> {
  return dialectMismatch(assumption, setting, { applied: true, objectId });
}
