/**
 * The real gateway command (`node src/main.ts`) as a child process in front of an upstream address, on a
 * free loopback port, ready once its `/healthz` answers: what the shutdown test and the soak run. Shared by
 * `test/` and `scripts/` (this folder imports neither).
 */
import { startHttpProcess, type RunningProcess } from './child-process.ts';
import { freePort } from './free-port.ts';

/** A running gateway command. */
export interface GatewayCommand {
  process: RunningProcess;
  /** `http://127.0.0.1:PORT` */
  baseUrl: string;
  graphqlUrl: string;
}

/** Options of {@link startGatewayCommand}. */
export interface GatewayCommandOptions {
  /** The four upstream addresses. */
  upstreamUrl: string;
  /** Settings added to (or replacing) the test defaults: `NODE_ENV=test`, `LOG_LEVEL=warn`, tenant `demo`/`acme`. */
  env?: Record<string, string>;
  /** Node options before the script, e.g. `--max-old-space-size=…`. */
  nodeOptions?: readonly string[];
  /** Output to this file instead of memory (a long run). */
  logFile?: string;
  /**
   * The typed object types (`OBJECT_TYPES_DIR`); default the gateway's own (`schema/objects/`). The tests
   * pass their copy of the demo types, so that a team's types change no test.
   */
  objectTypesDir?: string;
}

/** Starts `node src/main.ts` and waits until it serves. */
export async function startGatewayCommand(options: GatewayCommandOptions): Promise<GatewayCommand> {
  const { upstreamUrl } = options;
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = await startHttpProcess({
    name: 'gateway',
    args: [...(options.nodeOptions ?? []), 'src/main.ts'],
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      API_URL: upstreamUrl,
      BASE_URL: upstreamUrl,
      STUDIO_URL: upstreamUrl,
      SERVER_URL: upstreamUrl,
      APPLICATION_CODE: 'demo',
      ORGANIZATION_CODE: 'acme',
      ...(options.objectTypesDir === undefined ? {} : { OBJECT_TYPES_DIR: options.objectTypesDir }),
      ...options.env,
    },
    readyUrl: `${baseUrl}/healthz`,
    ...(options.logFile === undefined ? {} : { logFile: options.logFile }),
  });
  return { process: started, baseUrl, graphqlUrl: `${baseUrl}/graphql` };
}
