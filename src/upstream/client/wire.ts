/**
 * Types of the upstream's wire format, as `docs/upstream-contract.md` and `docs/design.md` describe it.
 *
 * This is the only module the emulator and the upstream client share, and it holds types only: a bug in
 * how one side builds or reads a message cannot hide on both sides of the wire. What the gateway receives
 * is inferred from the zod schemas that check it (`response-schemas.ts`, which declares those types beside
 * them), so the types cannot drift from what is accepted.
 */
/** The seven upstream operations, as named in counters, metrics and logs. */
export type WireOperation =
  'loginJson' | 'loginForm' | 'metadata' | 'getObject' | 'getAll' | 'save' | 'update';

/** One condition of a filter command. `matches` is the only operator the upstream documents. */
export interface Criterion {
  fieldName: string;
  operator: string;
  value: string;
}

/** The `filterCommand` query parameter of getObject and getAll, before `JSON.stringify`. */
export interface FilterCommand {
  criteria: Criterion[];
}

/**
 * How the upstream's `matches` operator compares (docs/design.md): `regex`, a regular expression the whole
 * value must match (Java's `String.matches`); `find`, a regular expression found anywhere in the value
 * (`Matcher.find()`, MongoDB's `$regex`), so the gateway anchors what it sends; `exact`, plain equality.
 */
export type MatchesMode = 'regex' | 'find' | 'exact';

/**
 * An object as stored upstream: `_id` plus the fields of its type. Declared, not inferred: its schema is a
 * guard (`isUpstreamRecord`) so that a record reaches the caller exactly as `JSON.parse` made it.
 */
export interface UpstreamRecord {
  _id: string;
  [field: string]: unknown;
}
