/**
 * The one gateway harness of the tests. `startGateway` builds the real gateway in front of any upstream
 * address (the emulator, a fault proxy, a misbehaving server); `startHarness` starts the embedded emulator
 * too and hands out real GraphQL clients (Apollo Client core, no React). Either listens on a free loopback
 * port, or (`listen: false`) serves only through `fetch`, which goes through Fastify's `inject`.
 */
import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../emulator/index.ts';
import { createGateway, type Gateway } from '../../src/app/create-gateway.ts';
import { emulatorSwitchesOf } from '../../src/app/start-embedded-emulator.ts';
import type { GatewayConfig } from '../../src/config/gateway-config.ts';
import { injectFetch, type InjectFetch } from './inject-fetch.ts';
import { lateBound } from './late-bound.ts';
import { DEMO_OBJECTS_DIR } from './object-fixtures.ts';
import { postGraphql, type GraphqlAnswer } from './post-graphql.ts';

/** The base URL of a gateway that does not listen (`.invalid` never resolves: RFC 2606). */
const UNREACHABLE_ORIGIN = 'http://no-socket.invalid';

/** A running gateway. */
export interface TestGateway {
  gateway: Gateway;
  /** `http://127.0.0.1:PORT`, or an origin that never resolves when it does not listen. */
  baseUrl: string;
  /** `${baseUrl}/graphql` */
  graphqlUrl: string;
  /** `fetch` through Fastify's `inject` (no socket): takes a path or any URL of this gateway. */
  fetch: InjectFetch;
  /** POSTs one operation to `/graphql` through {@link TestGateway.fetch}; never throws on an error. */
  post(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<GraphqlAnswer>;
  close(): Promise<void>;
}

/** Options of {@link startGateway}. */
export interface GatewayHarnessOptions {
  /** Gateway settings as environment variables, over the test defaults. */
  env?: Record<string, string>;
  /** Capture the gateway's log lines (sets LOG_LEVEL to `debug` unless `env` says otherwise). */
  logStream?: NodeJS.WritableStream;
  /** Listen on a free loopback port (default); `false`: serve only through `fetch` (inject). */
  listen?: boolean;
}

/** The settings of a test gateway whose four upstream addresses are `upstreamUrl`. */
function testConfig(options: GatewayHarnessOptions, upstreamUrl: string): GatewayConfig {
  return loadConfig({
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
    // A refused login answers at once; the tests of the minimum time set it.
    LOGIN_FAILURE_MIN_MS: '0',
    // Tests log in as `demo` from loopback far more often than people do; the tests of logins' share set it.
    LOGIN_MAX_PER_MINUTE_PER_ADDRESS: '1000000',
    LOGIN_MAX_PER_MINUTE_PER_ACCOUNT: '1000000',
    LOGIN_MAX_CONCURRENT_PER_ADDRESS: '10000',
    LOGIN_MAX_CONCURRENT_PER_ACCOUNT: '10000',
    // The tests' own copy of the demo types: a team's types in schema/objects/ change no test.
    OBJECT_TYPES_DIR: DEMO_OBJECTS_DIR,
    ...options.env,
  });
}

/** Starts a gateway whose four upstream addresses are `upstreamUrl`; call `close()` after. */
export async function startGateway(
  options: GatewayHarnessOptions & { upstreamUrl: string },
): Promise<TestGateway> {
  const config = testConfig(options, options.upstreamUrl);
  // The same assembly as `npm start` and `npm run example` (`src/app/run-gateway.ts`).
  const gateway = await createGateway({
    config,
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  // Without a port, an origin that cannot resolve: a test that forgets to use `fetch` fails loudly.
  const baseUrl = options.listen === false ? UNREACHABLE_ORIGIN : await gateway.listen();
  if (options.listen === false) await gateway.app.ready();
  const fetchOne = injectFetch(gateway.app);
  const graphqlUrl = `${baseUrl}/graphql`;
  return {
    gateway,
    baseUrl,
    graphqlUrl,
    fetch: fetchOne,
    post: (query, variables = {}, headers = {}) =>
      postGraphql(graphqlUrl, query, variables, headers, fetchOne),
    close: () => gateway.close(),
  };
}

/** A running emulator + gateway pair. */
export interface Harness extends TestGateway {
  emulator: RunningEmulator;
  /** An Apollo Client, optionally sending `Authorization: Bearer <token>`. */
  client(token?: string): ApolloClient;
  /** Logs in as the demo user and answers the session token. */
  login(method?: 'JSON' | 'FORM'): Promise<string>;
  /** Logs in as the demo user and answers the `authorization` header of the session, for `post`. */
  loginHeaders(): Promise<Record<string, string>>;
  /** Upstream calls per operation since the last `resetStats`. */
  upstreamCalls(): Record<string, number>;
  /** All upstream calls since the last `resetStats`. */
  totalUpstreamCalls(): number;
}

/** Options of {@link startHarness}: the emulator's, plus the gateway's. */
export interface HarnessOptions extends GatewayHarnessOptions {
  emulator?: EmulatorOptions;
  /** Serve this running emulator instead of starting one (`close()` leaves it running). */
  upstream?: RunningEmulator;
}

/** Starts emulator and gateway; call `close()` in `afterAll`. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  // The emulator follows the gateway's UPSTREAM_* switches as the embedded one does (the same function);
  // a test's own emulator options still win.
  const switches = emulatorSwitchesOf(testConfig(options, UNREACHABLE_ORIGIN));
  const emulator = options.upstream ?? (await startEmulator({ port: 0, ...switches, ...options.emulator }));
  const started = await startGateway({ ...options, upstreamUrl: emulator.url });
  const linkFetch: typeof fetch = (input, init) =>
    started.fetch(input instanceof Request ? input.url : String(input), init);
  const client = (token?: string) =>
    new ApolloClient({
      link: new HttpLink({
        uri: started.graphqlUrl,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        // Without a port, the client's requests go through inject too.
        ...(options.listen === false ? { fetch: linkFetch } : {}),
      }),
      cache: new InMemoryCache(),
      defaultOptions: {
        query: { fetchPolicy: 'no-cache', errorPolicy: 'all' },
        mutate: { fetchPolicy: 'no-cache', errorPolicy: 'all' },
      },
    });

  const login = async (method: 'JSON' | 'FORM' = 'JSON') => {
    const { LoginDocument } = await import('./operations.ts');
    const result = await client().mutate({
      mutation: LoginDocument,
      variables: { username: 'demo', password: 'demo-password', method },
    });
    const token = result.data?.login.token;
    if (token === undefined) throw new Error(`login failed: ${JSON.stringify(result.error)}`);
    return token;
  };

  return {
    ...started,
    emulator,
    client,
    login,
    loginHeaders: async () => ({ authorization: `Bearer ${await login()}` }),
    upstreamCalls: () => emulator.stats(),
    totalUpstreamCalls: () => Object.values(emulator.stats()).reduce((a, b) => a + b, 0),
    async close() {
      await started.close();
      if (options.upstream === undefined) await emulator.close();
    },
  };
}

/** Options of {@link useHarness}. */
export interface UseHarnessOptions extends HarnessOptions {
  /** Reset the emulator's call counters before each test (tests that count upstream calls). */
  resetStatsEachTest?: boolean;
}

/**
 * Starts a harness before the file's (or `describe`'s) tests and closes it after them. Answers a stand-in
 * that forwards to the running harness, so tests write `h.client()` without a `let` and two hooks each.
 */
export function useHarness(options: UseHarnessOptions = {}): Harness {
  const [harness, setHarness] = lateBound<Harness>('the harness');
  let running: Harness | undefined;
  beforeAll(async () => {
    running = await startHarness(options);
    setHarness(running);
  });
  afterAll(async () => {
    await running?.close();
  });
  if (options.resetStatsEachTest === true) {
    beforeEach(() => {
      running?.emulator.resetStats();
    });
  }
  return harness;
}
