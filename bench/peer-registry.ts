/**
 * The peers side by side: how each starts, how the bench knows it is up, and how a workload's request is
 * sent to it. P0 is the emulator itself; P1–P3, F1 and M1 live in `peers/`; P4 is the gateway in production
 * mode, and `P4-<feature>` (the `--features` mode) P4 with one feature neutralised (`features/`).
 */
import { fileURLToPath } from 'node:url';
import { DEMO, directRequests } from './emulator-client.ts';
import type { PlainRequest } from './emulator-client.ts';
import { freePort, httpProbe, startNodeProcess, stopProcess, waitUntilReady } from './processes.ts';
import type { BenchProcess } from './processes.ts';
import { PRODUCTION_PROCESS_ENV, startCommandNodeOptions } from '../support/start-command.ts';
import type { BenchSession } from './bench-users.ts';
import {
  featureOf,
  featureStartOptions,
  isFeaturePeer,
  type FeaturePeerId,
} from './features/feature-peers.ts';
import { gcProbe, gcStartOptions } from './gc/gc-probe.ts';
import type { GcProbe } from './gc/gc-probe.ts';
import { at, gatewayEnv, gatewaySessions } from './gateway-sessions.ts';
import { setUpVariant, type VariantSetup } from './gateway-variants.ts';
import { graphqlBody, workloadVariants } from './workloads.ts';
import type { Fixture, GraphQLBody, WorkloadId } from './workloads.ts';

/** Peer ids of a normal run, in the order the table shows them. */
export const PEER_IDS = [
  'P0',
  'P1',
  'P2',
  'P3',
  'F1',
  'F1H',
  'F1J',
  'F1C',
  'M1',
  'P4',
  'P4T',
  'P4D',
  'P4P',
  'PB',
] as const;
/** A peer id: one of {@link PEER_IDS}, or a feature-cost copy of P4 (`P4-log`, …). */
export type PeerId = (typeof PEER_IDS)[number] | FeaturePeerId;

const root = fileURLToPath(new URL('..', import.meta.url));
const scripts = {
  P1: `${root}bench/peers/passthrough.ts`,
  P2: `${root}bench/peers/naive-apollo.ts`,
  P3: `${root}bench/peers/datasource-apollo.ts`,
  F1: `${root}bench/peers/floor-apollo.ts`,
  F1H: `${root}bench/peers/floor-apollo.ts`,
  F1J: `${root}bench/peers/floor-apollo.ts`,
  F1C: `${root}bench/peers/floor-apollo.ts`,
  M1: `${root}bench/peers/mercurius-jit.ts`,
} as const;

/** The gateway's entry point: P4 is skipped (unless asked for) while it does not exist. */
export const GATEWAY_SCRIPT = `${root}src/main.ts`;

/** Where the bench runs things: the emulator's address, the upstream tokens, the log folder. */
export interface PeerEnvironment {
  emulatorUrl: string;
  emulator: BenchProcess;
  /** The demo user's upstream token: the fixture's reads and the one-session workloads (W5, W2H). */
  upstreamToken: string;
  /** One logged-in bench user per connection of the per-session workloads (`bench-users.ts`). */
  sessions: BenchSession[];
  fixture: Fixture;
  logDir: string;
  /** The checkout PB runs (`--baseline`), for a before/after of the gateway in one run. */
  baselineRoot?: string | undefined;
  /** Count every started peer's garbage collections (`--gc`, `gc/`). */
  gc?: boolean;
}

/** A peer that is up: its process (the emulator's for P0) and how to build a workload's request. */
export interface RunningPeer {
  id: PeerId;
  process: BenchProcess;
  /**
   * The requests of a workload, one per variant (connection `i` sends variant `i % n`), or `undefined`
   * when the peer has no equivalent (P0 on W3 and W3T, P2 and P3 on W3T).
   */
  requests(workload: WorkloadId): PlainRequest[] | undefined;
  /** Its collection totals, when started with `--gc` (not P0: the emulator serves every peer). */
  gc?: GcProbe;
}

/**
 * The GraphQL requests of a workload, one per variant, each with the headers of its session: `headersOf(i)`
 * for bench session `i`, `headersOf(undefined)` for the demo user's one session.
 */
function graphqlRequests(
  url: string,
  headersOf: (session: number | undefined) => Record<string, string>,
  workload: WorkloadId,
  fixture: Fixture,
  toBody: (body: GraphQLBody) => unknown = (body) => body,
): PlainRequest[] {
  return workloadVariants(workload, fixture).map(({ object, session }) => ({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headersOf(session) },
    body: JSON.stringify(toBody(graphqlBody(workload, object?._id))),
  }));
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
  const { emulatorUrl, upstreamToken, fixture, sessions } = env;
  if (id === 'P0') {
    return {
      id,
      process: env.emulator,
      requests: (w) => directRequests(emulatorUrl, upstreamToken, sessions, w, fixture),
    };
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const url = `${base}/graphql`;
  const counting = env.gc === true ? gcStartOptions(id, env.logDir) : undefined;
  const probeOf = (child: BenchProcess): { gc?: GcProbe } =>
    counting === undefined ? {} : { gc: gcProbe(child.pid, counting.file) };
  if (id === 'P4' || id === 'PB' || id === 'P4T' || id === 'P4D' || id === 'P4P' || isFeaturePeer(id)) {
    const feature = featureOf(id);
    const checkout = id === 'PB' ? env.baselineRoot : root;
    const variant: VariantSetup | undefined =
      id === 'P4T' || id === 'P4D' || id === 'P4P' ? await setUpVariant(id, env.logDir) : undefined;
    if (checkout === undefined) throw new Error('PB needs --baseline=<checkout of the gateway>');
    const dir = checkout.endsWith('/') ? checkout : `${checkout}/`;
    const neutralised = feature === undefined ? undefined : featureStartOptions(feature);
    // Started as `npm start` starts it (its Node options, e.g. the heap sizes), not bare `node src/main.ts`;
    // from the sources, not the bundle, so that the feature copies can swap source modules (same CPU per request).
    const child = startNodeProcess(
      id,
      `${dir}src/main.ts`,
      { ...gatewayEnv(emulatorUrl, port), ...variant?.env, ...neutralised?.env, ...counting?.env },
      env.logDir,
      'log',
      [
        ...startCommandNodeOptions(`${dir}package.json`),
        ...(neutralised?.nodeOptions ?? []),
        ...(counting?.nodeOptions ?? []),
      ],
    );
    const headersOf = await stopOnFailure(child, async () => {
      await waitUntilReady(child, httpProbe(`${base}/healthz`));
      return gatewaySessions(url, sessions);
    });
    return {
      id,
      process: child,
      requests: (w) => graphqlRequests(url, headersOf, w, fixture, variant?.body),
      ...probeOf(child),
    };
  }
  // F1H is F1 in the gateway's process: `npm start`'s heap sizes and the container's environment, so F1H
  // against F1 is what the production heap costs the floor, and P4 against F1H is what the gateway adds.
  const production = id === 'F1H';
  const child = startNodeProcess(
    id,
    scripts[id],
    {
      NODE_ENV: 'production',
      PORT: String(port),
      UPSTREAM_URL: emulatorUrl,
      APPLICATION_CODE: DEMO.applicationCode,
      ORGANIZATION_CODE: DEMO.organizationCode,
      ...(production ? PRODUCTION_PROCESS_ENV : {}),
      // F1J: F1 executing with the gateway's compiled executor.
      ...(id === 'F1J' || id === 'F1C' ? { COMPILED_EXECUTION: 'true' } : {}),
      // F1C: F1J answering every read from memory after its first call, the ceiling of a cache on Apollo.
      ...(id === 'F1C' ? { FLOOR_MEMO: 'true' } : {}),
      ...counting?.env,
    },
    env.logDir,
    'log',
    [...(production ? startCommandNodeOptions(`${root}package.json`) : []), ...(counting?.nodeOptions ?? [])],
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
  // No sessions here: each connection's upstream credentials travel in headers (its own bench user's).
  const headersOf = (session: number | undefined): Record<string, string> => {
    const user = session === undefined ? undefined : at(sessions, session);
    return {
      'x-upstream-token': user?.upstreamToken ?? upstreamToken,
      'x-upstream-username': user?.username ?? DEMO.username,
    };
  };
  return {
    id,
    process: child,
    // P2 and P3 expose the generic API only: the typed W3T has no equivalent there.
    requests: (w) =>
      w === 'W3T' && (id === 'P2' || id === 'P3') ? undefined : graphqlRequests(url, headersOf, w, fixture),
    ...probeOf(child),
  };
}
