/**
 * The command line (`npm start`): reads the settings, starts tracing when asked, then the gateway process
 * (`app/run-gateway.ts`: the emulator in-process when no upstream is set, the gateway, and a clean stop of
 * both on SIGTERM/SIGINT), and prints the banner: where to send queries, which upstream it calls, and the
 * switches that change the API a client sees (`RELAY_NODE`, `FEDERATION`, trusted documents).
 */
import { ConfigError } from './config/config-error.ts';
import type { GatewayConfig } from './config/gateway-config.ts';
import { loadConfig } from './config/load-config.ts';
import { withoutPassword } from './config/settings-in-effect.ts';
import { tracingRequested, type GatewayTracing } from './observability/tracing/tracing.ts';
import { StartProblem } from './app/start-problem.ts';

/** The banner's line on the switches that change the API a client sees; one fact each, by setting. */
function apiLine(config: GatewayConfig): string {
  const { files, only } = config.trustedDocuments;
  const manifests = `${String(files.length)} manifest${files.length === 1 ? '' : 's'}`;
  const switches = [
    ...(config.relayNode ? ["RELAY_NODE=true (Relay's Node: every id a global id, node(id:))"] : []),
    ...(config.federation
      ? [
          `FEDERATION=true (an Apollo Federation 2 subgraph${config.federationNamePrefix === undefined ? '' : `, names prefixed ${config.federationNamePrefix}`})`,
        ]
      : []),
    ...(files.length > 0 || only
      ? [
          `TRUSTED_DOCUMENTS (${manifests}${only ? '; TRUSTED_DOCUMENTS_ONLY: any other document refused' : ''})`,
        ]
      : []),
  ];
  return switches.length === 0
    ? 'API:              the default schema (RELAY_NODE, FEDERATION and TRUSTED_DOCUMENTS off)'
    : `API:              ${switches.join(', ')}`;
}

async function main(): Promise<void> {
  const config = loadConfig();
  // Only when the OTEL_* variables ask: the SDK is not even loaded otherwise (the bundle keeps it in a chunk
  // of its own). Nothing is patched, so the order of the two imports does not matter to the spans.
  let tracing: GatewayTracing | undefined;
  if (tracingRequested()) {
    const { startTracing } = await import('./observability/tracing/start-tracing.ts');
    tracing = startTracing({
      propagateUpstream: config.upstreamPropagateTrace,
      upstreamBaggageKeys: config.upstreamBaggageKeys,
      traceResolvers: config.traceResolvers,
      graphqlPath: '/graphql',
    });
  }
  const { runGateway } = await import('./app/run-gateway.ts');
  const { gateway, url, emulator } = await runGateway({ config, tracing });
  gateway.app.log.info(
    {
      node: process.version,
      upstream: config.upstream.kind,
      production: config.production,
      relayNode: config.relayNode,
      federation: config.federation,
      trustedDocuments: config.trustedDocuments.files.length,
      tracing: !!tracing,
    },
    `gateway listening on ${url}/graphql`,
  );
  const upstream = emulator
    ? [
        `Upstream:         embedded emulator at ${emulator.url}`,
        emulator.dataFile === undefined
          ? 'Data:             in memory, lost at exit (EMULATOR_DATA_FILE=<file> keeps it across restarts)'
          : `Data:             kept in ${emulator.dataFile} across restarts (EMULATOR_DATA_FILE)`,
      ]
    : config.upstream.kind === 'remote'
      ? [`Upstream:         ${withoutPassword(config.upstream.urls.baseUrl)} (BASE_URL)`]
      : [];
  const lines = [
    `GraphQL endpoint: ${url}/graphql`,
    config.landingPage ? `Apollo Sandbox:   open ${url}/graphql in a browser` : 'Landing page:     off',
    ...(config.landingPage
      ? [`GraphiQL:         ${url}/graphiql (served by the gateway, works offline)`]
      : []),
    `Node.js:          ${process.version}`,
    ...upstream,
    apiLine(config),
    'Settings:         npm run config prints each setting in effect and where it came from',
  ];
  if (emulator) {
    const DEMO = emulator.demo;
    lines.push(
      `Demo login:       username "${DEMO.username}" (or mobile ${DEMO.mobile}), password "${DEMO.password}"`,
      `Try:              curl -s ${url}/graphql -H 'content-type: application/json' \\`,
      `                    -d '{"query":"mutation { login(username: \\"demo\\", password: \\"demo-password\\") { token } }"}'`,
    );
  }

  // The banner last: whoever waits for it (a test, a supervisor) may signal at once, and finds the
  // handlers `runGateway` installed rather than Node's default, which would kill the process without a drain.
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof StartProblem) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `gateway failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
  }
  process.exit(1);
});
