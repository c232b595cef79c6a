/**
 * The peers side by side: how each starts, how the bench knows it is up, and how a workload's request is
 * sent to it. P0 is the emulator itself; P1–P3 live in `peers/`; P4 is the gateway in production mode.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { DEMO, directRequests } from './emulator-client.ts';
import type { PlainRequest } from './emulator-client.ts';
import { freePort, httpProbe, startNodeProcess, stopProcess, waitUntilReady } from './processes.ts';
import type { BenchProcess } from './processes.ts';
import { PRODUCTION_PROCESS_ENV, startCommandNodeOptions } from './start-command.ts';
import { GATEWAY_LOGIN_QUERY, setUpVariant, type VariantSetup } from './gateway-variants.ts';
import { graphqlBody, variantObjects } from './workloads.ts';
import type { Fixture, GraphQLBody, WorkloadId } from './workloads.ts';

/** Peer ids, in the order the table shows them. */
export const PEER_IDS = ['P0', 'P1', 'P2', 'P3', 'P4', 'P4T', 'P4D', 'PB'] as const;
/** A peer id. */
export type PeerId = (typeof PEER_IDS)[number];

/** What each peer is, in a few words. */
export const PEER_TITLES: Record<PeerId, string> = {
  P0: 'emulator called directly (JSONP)',
  P1: 'minimal pass-through (node:http + undici, no GraphQL)',
  P2: 'naive Apollo Server 5 (fetch, regex, no DataLoader)',
  P3: 'Apollo Server 5 + RESTDataSource',
  P4: 'this gateway (production)',
  P4T: 'P4 with OpenTelemetry traces on (OTLP/HTTP to a sink)',
  P4D: 'P4 on trusted documents only, sent as documentId',
  PB: 'this gateway from another checkout (--baseline), started as P4',
};

const root = fileURLToPath(new URL('..', import.meta.url));
const scripts: Record<Exclude<PeerId, 'P0' | 'PB' | 'P4T' | 'P4D'>, string> = {
  P1: `${root}bench/peers/passthrough.ts`,
  P2: `${root}bench/peers/naive-apollo.ts`,
  P3: `${root}bench/peers/datasource-apollo.ts`,
  P4: `${root}src/main.ts`,
};

/** The gateway's entry point: P4 is skipped (unless asked for) while it does not exist. */
export const GATEWAY_SCRIPT = scripts.P4;

/** Where the bench runs things: the emulator's address, the upstream token, the log folder. */
export interface PeerEnvironment {
  emulatorUrl: string;
  emulator: BenchProcess;
  upstreamToken: string;
  fixture: Fixture;
  logDir: string;
  /** The checkout PB runs (`--baseline`), for a before/after of the gateway in one run. */
  baselineRoot?: string | undefined;
}

/** A peer that is up: its process (the emulator's for P0) and how to build a workload's request. */
export interface RunningPeer {
  id: PeerId;
  process: BenchProcess;
  /**
   * The requests of a workload, one per variant (connection `i` sends variant `i % n`), or `undefined`
   * when the peer has no equivalent (P0 on W3).
   */
  requests(workload: WorkloadId): PlainRequest[] | undefined;
}

function graphqlRequests(
  url: string,
  headers: Record<string, string>,
  workload: WorkloadId,
  fixture: Fixture,
  toBody: (body: GraphQLBody) => unknown = (body) => body,
): PlainRequest[] {
  return variantObjects(workload, fixture).map((object) => ({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(toBody(graphqlBody(workload, object?._id))),
  }));
}

async function gatewayLogin(url: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: GATEWAY_LOGIN_QUERY,
      variables: { u: DEMO.username, p: DEMO.password },
    }),
  });
  const answer = (await response.json()) as { data?: { login?: { token?: unknown } } };
  const token = answer.data?.login?.token;
  if (typeof token !== 'string') throw new Error('the gateway refused the demo login');
  return token;
}

/** Runs `step`; when it fails, stops `child` first so no process outlives a failed start. */
async function stopOnFailure<T>(child: BenchProcess, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
}

/** Starts a peer (P0 only wraps the running emulator) and waits until it answers. */
export async function startPeer(id: PeerId, env: PeerEnvironment): Promise<RunningPeer> {
  const { emulatorUrl, upstreamToken, fixture } = env;
  if (id === 'P0') {
    return {
      id,
      process: env.emulator,
      requests: (w) => directRequests(emulatorUrl, upstreamToken, w, fixture),
    };
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const url = `${base}/graphql`;
  if (id === 'P4' || id === 'PB' || id === 'P4T' || id === 'P4D') {
    const checkout = id === 'PB' ? env.baselineRoot : root;
    const variant: VariantSetup | undefined =
      id === 'P4T' || id === 'P4D' ? await setUpVariant(id, env.logDir) : undefined;
    if (checkout === undefined) throw new Error('PB needs --baseline=<checkout of the gateway>');
    const dir = checkout.endsWith('/') ? checkout : `${checkout}/`;
    // Started as `npm start` starts it (its Node options, e.g. the heap sizes), not bare `node src/main.ts`.
    const child = startNodeProcess(
      id,
      `${dir}src/main.ts`,
      { ...gatewayEnv(emulatorUrl, port), ...variant?.env },
      env.logDir,
      'log',
      startCommandNodeOptions(`${dir}package.json`),
    );
    const token = await stopOnFailure(child, async () => {
      await waitUntilReady(child, httpProbe(`${base}/healthz`));
      return gatewayLogin(url);
    });
    const headers = { authorization: `Bearer ${token}` };
    return {
      id,
      process: child,
      requests: (w) => graphqlRequests(url, headers, w, fixture, variant?.body),
    };
  }
  const child = startNodeProcess(
    id,
    scripts[id],
    {
      NODE_ENV: 'production',
      PORT: String(port),
      UPSTREAM_URL: emulatorUrl,
      APPLICATION_CODE: DEMO.applicationCode,
      ORGANIZATION_CODE: DEMO.organizationCode,
    },
    env.logDir,
  );
  const probe =
    id === 'P1'
      ? httpProbe(`${base}/healthz`)
      : httpProbe(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"query":"{__typename}"}',
        });
  await stopOnFailure(child, () => waitUntilReady(child, probe));
  const headers = { 'x-upstream-token': upstreamToken, 'x-upstream-username': DEMO.username };
  return { id, process: child, requests: (w) => graphqlRequests(url, headers, w, fixture) };
}

/**
 * The gateway's production settings (with the container's process environment), all four upstream
 * addresses on the emulator.
 */
function gatewayEnv(emulatorUrl: string, port: number): Record<string, string> {
  return {
    ...PRODUCTION_PROCESS_ENV,
    NODE_ENV: 'production',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    API_URL: emulatorUrl,
    BASE_URL: emulatorUrl,
    STUDIO_URL: emulatorUrl,
    SERVER_URL: emulatorUrl,
    APPLICATION_CODE: DEMO.applicationCode,
    ORGANIZATION_CODE: DEMO.organizationCode,
    HOST: '127.0.0.1',
    PORT: String(port),
  };
}
