/**
 * A tiny fetch-based GraphQL client that reports HTTP status, headers, body and elapsed time, and never
 * throws on a GraphQL or HTTP error; with the operations most tests send.
 */

/** A GraphQL error as it travels. */
export interface WireError {
  message: string;
  extensions?: Record<string, unknown>;
}

/** What {@link postGraphql} answers. */
export interface GraphqlAnswer {
  status: number;
  headers: Headers;
  data?: Record<string, unknown> | null;
  errors?: WireError[];
  elapsedMillis: number;
}

/** POSTs one operation (with `fetchFn`, e.g. a harness's inject fetch); never throws on a GraphQL or HTTP error. */
export async function postGraphql(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  fetchFn: (url: string, init: RequestInit) => Promise<Response> = fetch,
): Promise<GraphqlAnswer> {
  const started = performance.now();
  const response = await fetchFn(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: Record<string, unknown> | null; errors?: WireError[] };
  return {
    status: response.status,
    headers: response.headers,
    ...body,
    elapsedMillis: performance.now() - started,
  };
}

/** The `extensions.code` of each error. */
export function codesOf(answer: { errors?: WireError[] | undefined }): unknown[] {
  return (answer.errors ?? []).map((error) => error.extensions?.code);
}

export const LOGIN = `mutation Login($username: String!, $password: String!) {
  login(username: $username, password: $password) { token }
}`;

export const LOAN_TYPES = `query LoanTypes { objects(objectName: "com.example.LoanType", first: 3) { totalCount nodes { id } } }`;

/** Logs in as the demo user through `graphqlUrl` and answers the session token. */
export async function loginDemo(graphqlUrl: string): Promise<string> {
  const answer = await postGraphql(graphqlUrl, LOGIN, { username: 'demo', password: 'demo-password' });
  const login = answer.data?.login as { token?: string } | undefined;
  if (login?.token === undefined) throw new Error(`login failed: ${JSON.stringify(answer.errors)}`);
  return login.token;
}
