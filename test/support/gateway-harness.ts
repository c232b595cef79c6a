/**
 * Starts the real emulator and the real gateway on free loopback ports, and hands out real GraphQL clients
 * (Apollo Client core, no React) for them.
 */
import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { loadConfig } from '../../src/config/load-config.ts';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../emulator/index.ts';
import { createGateway, type Gateway } from '../../src/app/create-gateway.ts';

/** A running emulator + gateway pair. */
export interface Harness {
  emulator: RunningEmulator;
  gateway: Gateway;
  /** `http://127.0.0.1:PORT/graphql` */
  graphqlUrl: string;
  /** An Apollo Client, optionally sending `Authorization: Bearer <token>`. */
  client(token?: string): ApolloClient;
  /** Logs in as the demo user and answers the session token. */
  login(method?: 'JSON' | 'FORM'): Promise<string>;
  /** Upstream calls per operation since the last `resetStats`. */
  upstreamCalls(): Record<string, number>;
  close(): Promise<void>;
}

/** Options: the emulator's, plus gateway settings as environment variables. */
export interface HarnessOptions {
  emulator?: EmulatorOptions;
  /** Serve this running emulator instead of starting one (`close()` leaves it running). */
  upstream?: RunningEmulator;
  env?: Record<string, string>;
  /** Capture the gateway's log lines (sets LOG_LEVEL to `debug` unless `env` says otherwise). */
  logStream?: NodeJS.WritableStream;
}

/** Starts emulator and gateway; call `close()` in `afterAll`. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const emulator = options.upstream ?? (await startEmulator({ port: 0, ...options.emulator }));
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: options.logStream ? 'debug' : 'silent',
    APPLICATION_CODE: 'demo',
    ORGANIZATION_CODE: 'acme',
    API_URL: emulator.url,
    BASE_URL: emulator.url,
    STUDIO_URL: emulator.url,
    SERVER_URL: emulator.url,
    ...options.env,
  });
  const gateway = await createGateway({
    config,
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  const base = await gateway.listen();
  const graphqlUrl = `${base}/graphql`;

  const client = (token?: string) =>
    new ApolloClient({
      link: new HttpLink({ uri: graphqlUrl, headers: token ? { authorization: `Bearer ${token}` } : {} }),
      cache: new InMemoryCache(),
      defaultOptions: {
        query: { fetchPolicy: 'no-cache', errorPolicy: 'all' },
        mutate: { fetchPolicy: 'no-cache', errorPolicy: 'all' },
      },
    });

  return {
    emulator,
    gateway,
    graphqlUrl,
    client,
    async login(method = 'JSON') {
      const { LoginDocument } = await import('./operations.ts');
      const result = await client().mutate({
        mutation: LoginDocument,
        variables: { username: 'demo', password: 'demo-password', method },
      });
      const token = result.data?.login.token;
      if (token === undefined) throw new Error(`login failed: ${JSON.stringify(result.error)}`);
      return token;
    },
    upstreamCalls: () => emulator.stats(),
    async close() {
      await gateway.close();
      if (options.upstream === undefined) await emulator.close();
    },
  };
}
