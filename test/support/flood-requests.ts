/**
 * The raw requests of the fair-share floods (`keep-alive-flood.ts` writes them in turn), one builder per
 * flood, shared by the one-replica and two-replica tests.
 */
import { startKeepAliveFlood, type KeepAliveFlood } from './keep-alive-flood.ts';
import { rawJsonPost } from './raw-http-client.ts';

/** A filtered read of a pattern the ReDoS checker must analyse (hundreds of ms each), never the same twice. */
export function newPatternRequests(
  headers: Record<string, string>,
  account: number,
  count = 20_000,
): string[] {
  const filtered = `query F($p: String!) { objects(objectName: "com.example.LoanType", filter: { criteria: [{ fieldName: "loanType", value: $p }] }) { totalCount } }`;
  return Array.from({ length: count }, (_, i) =>
    rawJsonPost('/graphql', { query: filtered, variables: { p: `a${account}x${i}[a-z]+b[0-9]*c` } }, headers),
  );
}

/**
 * The same page of `records` large records on every connection: identical reads in flight share one
 * upstream call, so almost all the cost is the gateway's (parsing the upstream's answer, building and
 * serializing its own).
 */
export function largePageRequests(
  headers: Record<string, string>,
  objectName: string,
  records: number,
): string[] {
  return [
    rawJsonPost(
      '/graphql',
      { query: `{ objects(objectName: "${objectName}", first: ${records}) { nodes { data } } }` },
      headers,
    ),
  ];
}

/**
 * `{ __typename }` without a session from `networks` addresses (127.0.0.10 on), `connections` spread over
 * them, `batch` pipelined on each: many networks each within its own share.
 */
export function startNetworksTypenameFlood(
  port: number,
  options: { networks: number; connections: number; batch: number },
): KeepAliveFlood {
  return startKeepAliveFlood({
    port,
    requests: [rawJsonPost('/graphql', { query: '{ __typename }' })],
    connections: options.connections,
    batch: options.batch,
    localAddress: Array.from({ length: options.networks }, (_, i) => `127.0.0.${String(10 + i)}`),
  });
}
