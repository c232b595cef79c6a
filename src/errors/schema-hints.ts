/**
 * graphql-js's suggestions: a misspelt name answered with the names it resembles (`Did you mean "number"?`,
 * `Did you mean the enum value "matches"?`). With introspection off they would hand a stranger the schema
 * one guess at a time, so they are masked then (`INTROSPECTION=false`, production's default).
 *
 * Validation errors lose them at the source (graphql-js's `hideSuggestions`, and Apollo Server's
 * `hideSchemaDetailsFromClientErrors`); Apollo Server does not pass `hideSuggestions` to `execute`, so the
 * coercion errors of variables keep theirs, and {@link withoutSuggestion} takes them off in `formatError`.
 */

/**
 * The suggestion graphql-js's `didYouMean` appends, at the very end of a message: one to five quoted names
 * (schema names hold no quote), joined by `, ` and ` or `, after an optional sub-message
 * (`the enum value `). Precise, so text the caller wrote earlier in the message is never touched.
 */
const SUGGESTION = / Did you mean (?:[a-z ]+ )?"[^"]*"(?:(?:, | or |, or )"[^"]*")*\?$/;

/** `message` without graphql-js's trailing suggestion, if it has one. */
export function withoutSuggestion(message: string): string {
  return message.replace(SUGGESTION, '');
}
