/**
 * Logs in through the gateway at `graphqlUrl` with `document` (the plain `LOGIN` by default) and `variables`,
 * answering the `authorization` header of the session; throws, naming the username and the errors, when no
 * token comes back.
 */
import { LOGIN, postGraphql } from './post-graphql.ts';

export async function bearerLogin(
  graphqlUrl: string,
  variables: { username: string } & Record<string, unknown>,
  document: string = LOGIN,
): Promise<Record<string, string>> {
  const answer = await postGraphql(graphqlUrl, document, variables);
  const token = (answer.data?.login as { token?: string } | undefined)?.token;
  if (token === undefined) {
    throw new Error(`login of ${variables.username} failed: ${JSON.stringify(answer.errors)}`);
  }
  return { authorization: `Bearer ${token}` };
}
