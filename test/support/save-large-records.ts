/**
 * An attacker's own large records, saved eight at a time: `records` objects `{ n, payload }` of `characters`
 * characters each, through `save` (a `saveObject` taking `$data`). The large-answer attacks of
 * `test/hardening/large-answer-attack.test.ts` and `two-replica-floods.test.ts` read them back.
 */
import { postGraphql, type GraphqlAnswer } from './post-graphql.ts';

/** Saves the records at `graphqlUrl` as `headers`' caller; answers every save's answer, in order. */
export async function saveLargeRecords(
  graphqlUrl: string,
  save: string,
  headers: Record<string, string>,
  records: number,
  characters: number,
): Promise<GraphqlAnswer[]> {
  const answers: GraphqlAnswer[] = [];
  for (let start = 0; start < records; start += 8) {
    const saves = Array.from({ length: Math.min(8, records - start) }, (_, i) =>
      postGraphql(graphqlUrl, save, { data: { n: start + i, payload: 'x'.repeat(characters) } }, headers),
    );
    answers.push(...(await Promise.all(saves)));
  }
  return answers;
}
