/**
 * A gateway in front of any upstream address (the emulator, a fault proxy), with a tiny fetch-based GraphQL
 * client that reports HTTP status, body and elapsed time.
 */
import { loadConfig } from '../../../src/config/load-config.ts';
import { createGateway, type Gateway } from '../../../src/app/create-gateway.ts';

/** A running gateway. */
export interface TestGateway {
  gateway: Gateway;
  /** `http://127.0.0.1:PORT` */
  baseUrl: string;
  graphqlUrl: string;
  close(): Promise<void>;
}

/** Starts a gateway whose four upstream addresses are `upstreamUrl`. */
export async function startGateway(options: {
  upstreamUrl: string;
  env?: Record<string, string>;
  logStream?: NodeJS.WritableStream;
}): Promise<TestGateway> {
  const { upstreamUrl } = options;
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: options.logStream ? 'debug' : 'silent',
    APPLICATION_CODE: 'demo',
    ORGANIZATION_CODE: 'acme',
    API_URL: upstreamUrl,
    BASE_URL: upstreamUrl,
    STUDIO_URL: upstreamUrl,
    SERVER_URL: upstreamUrl,
    LOGIN_FAILURE_MIN_MS: '0',
    ...options.env,
  });
  const gateway = await createGateway({
    config,
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  const baseUrl = await gateway.listen();
  return { gateway, baseUrl, graphqlUrl: `${baseUrl}/graphql`, close: () => gateway.close() };
}

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

/** POSTs one operation; never throws on a GraphQL or HTTP error. */
export async function postGraphql(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<GraphqlAnswer> {
  const started = performance.now();
  const response = await fetch(url, {
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
