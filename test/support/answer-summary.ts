/**
 * An answer in one word for the hardening tests' tallies: `data`, or its first error's code followed by the
 * error's `extensions` named in `keys`, joined by `/` (`MAX_ANSWER_BYTES_EXCEEDED/caller`).
 */
import type { GraphqlAnswer } from './post-graphql.ts';

export function answerSummary(answer: GraphqlAnswer, keys: readonly string[]): string {
  const error = answer.errors?.[0];
  if (error === undefined) return 'data';
  return [error.extensions?.code, ...keys.map((key) => error.extensions?.[key])].map(String).join('/');
}
