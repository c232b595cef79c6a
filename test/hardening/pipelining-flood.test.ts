/**
 * A pipelining flood from one address: eight connections, each writing 2,000 reads at
 * once, again and again, while another user reads from another address and the probes are asked. Each
 * flooding connection runs its first request, and, having more than `MAX_PIPELINED_REQUESTS` waiting,
 * gets 503 `GATEWAY_BUSY` (`pipelined_requests`) after it, its connection closed; once the address has
 * opened more new connections than its share (`MAX_NEW_CONNECTIONS_PER_ADDRESS_PER_SECOND`, after a burst
 * of 64), a flooding connection waits unread, and its 2,000 reads are more than a waiting connection may
 * send: 503 (`new_connections_per_address`), none of them run. The other user's reads and every `/healthz`
 * and `/readyz` are answered 200 meanwhile. Refusals are counted, not milliseconds.
 */
import { expect, it } from 'vitest';
import { fetchFrom } from '../support/fetch-from.ts';
import { useGatewayPool } from '../support/gateway-pool.ts';
import { LOAN_TYPES, codesOf, loginDemo, postGraphql } from '../support/post-graphql.ts';
import { pipelined, rawJsonPost, type PipelinedResponse } from '../support/raw-http-client.ts';

const { gateway } = useGatewayPool();

const CONNECTIONS = 8;
const PIPELINED = 2_000;
const reasonOf = (response: PipelinedResponse) => /"reason":"(\w+)"/.exec(response.body)?.[1];

it('should leave another user’s reads and the probes served while one address floods pipelined reads', async () => {
  const gw = await gateway();
  const port = Number(new URL(gw.graphqlUrl).port);
  const token = await loginDemo(gw.graphqlUrl);
  const read = rawJsonPost('/graphql', { query: LOAN_TYPES }, { authorization: `Bearer ${token}` });

  const victimDone = new AbortController();
  const floods: PipelinedResponse[][] = [];
  const flood = (async () => {
    while (!victimDone.signal.aborted) {
      floods.push(
        ...(await Promise.all(
          Array.from({ length: CONNECTIONS }, () =>
            pipelined(port, Array<string>(PIPELINED).fill(read), '127.0.0.2'),
          ),
        )),
      );
    }
  })();

  const victim = fetchFrom('127.0.0.3');
  const codes: unknown[] = [];
  const probes: number[] = [];
  try {
    for (let round = 0; round < 20; round++) {
      const answer = await postGraphql(
        gw.graphqlUrl,
        LOAN_TYPES,
        {},
        { authorization: `Bearer ${token}` },
        victim.fetch,
      );
      codes.push(...codesOf(answer), answer.status);
      for (const path of ['/healthz', '/readyz']) {
        probes.push((await victim.fetch(`${gw.baseUrl}${path}`, { method: 'GET' })).status);
      }
    }
  } finally {
    victimDone.abort();
    await flood;
    await victim.close();
  }

  console.info(
    `${String(floods.length)} flooding connections of ${String(PIPELINED)} pipelined reads each, beside 20 reads and 40 probes`,
  );
  // The other user: every read answered 200 without an error; every probe 200.
  expect(codes).toEqual(Array<number>(20).fill(200));
  expect(probes).toEqual(Array<number>(40).fill(200));
  // Each flooding connection read at once: its first read answered, then one refusal, then closed; none
  // of the 1,999 others ran. The first round's are (the burst); a later one past the address's share of
  // new connections is refused before any of its reads runs.
  expect(floods.length).toBeGreaterThanOrEqual(CONNECTIONS);
  const readAtOnce = [
    [200, undefined],
    [503, 'pipelined_requests'],
  ];
  const refusedWaiting = [[503, 'new_connections_per_address']];
  for (const answers of floods) {
    const outcome = answers.map((answer) => [answer.status, reasonOf(answer)]);
    expect(outcome).toEqual(outcome[0]?.[0] === 200 ? readAtOnce : refusedWaiting);
  }
  expect(floods.slice(0, CONNECTIONS).map((answers) => answers[0]?.status)).toEqual(
    Array<number>(CONNECTIONS).fill(200),
  );
});
