/**
 * The command line (`npm start`): reads the settings, starts the emulator in-process when no upstream is
 * set, starts the gateway, and stops both cleanly on SIGTERM/SIGINT (`shutdown.ts`).
 */
import { ConfigError, loadConfig } from './config.ts';
import { startEmulator, DEMO } from './emulator/index.ts';
import { tracingRequested, type GatewayTracing } from './observability/tracing.ts';
import type { UpstreamUrls } from './server.ts';
import { createShutdown } from './shutdown.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  // Only when the OTEL_* variables ask: the SDK is not even loaded otherwise. Before the gateway's modules
  // are imported (below), since the instrumentations patch graphql-js and node:http as they load.
  let tracing: GatewayTracing | undefined;
  if (tracingRequested()) {
    const { startTracing } = await import('./observability/start-tracing.ts');
    tracing = startTracing({ propagateUpstream: config.upstreamPropagateTrace, graphqlPath: '/graphql' });
  }
  const { createGateway } = await import('./server.ts');
  let upstreamUrls: UpstreamUrls;
  let stopEmulator: (() => Promise<void>) | undefined;
  if (config.upstream.kind === 'remote') {
    upstreamUrls = config.upstream;
  } else {
    // The embedded emulator follows the gateway's UPSTREAM_* switches, so both sides agree.
    const emulator = await startEmulator({
      port: config.upstream.emulatorPort,
      host: '127.0.0.1',
      matches: config.matchesMode,
      pageStart: config.pageStartMode,
    });
    stopEmulator = () => emulator.close();
    upstreamUrls = {
      apiUrl: emulator.url,
      baseUrl: emulator.url,
      studioUrl: emulator.url,
      serverUrl: emulator.url,
    };
  }
  const gateway = await createGateway({ config, upstreamUrls, ...(tracing ? { tracing } : {}) });
  const url = await gateway.listen();
  gateway.app.log.info(
    {
      node: process.version,
      upstream: config.upstream.kind,
      production: config.production,
      tracing: !!tracing,
    },
    `gateway listening on ${url}/graphql`,
  );
  const lines = [
    `GraphQL endpoint: ${url}/graphql`,
    config.landingPage ? `Apollo Sandbox:   open ${url}/graphql in a browser` : 'Landing page:     off',
    ...(config.landingPage
      ? [`GraphiQL:         ${url}/graphiql (served by the gateway, works offline)`]
      : []),
    `Node.js:          ${process.version}`,
  ];
  if (stopEmulator) {
    lines.push(
      `Upstream:         embedded emulator at ${upstreamUrls.studioUrl}`,
      `Demo login:       username "${DEMO.username}" (or mobile ${DEMO.mobile}), password "${DEMO.password}"`,
      `Try:              curl -s ${url}/graphql -H 'content-type: application/json' \\`,
      `                    -d '{"query":"mutation { login(username: \\"demo\\", password: \\"demo-password\\") { token } }"}'`,
    );
  }
  process.stdout.write(`\n${lines.join('\n')}\n\n`);

  const shutdown = createShutdown({
    gateway,
    delayMillis: config.shutdown.delayMillis,
    graceMillis: config.shutdown.graceMillis,
    afterClose: async () => {
      await stopEmulator?.();
      // The last spans (the shutdown's own requests included) leave before the process does.
      await tracing?.shutdown().catch(() => undefined);
    },
  });
  let signals = 0;
  const onSignal = (signal: string) => {
    signals += 1;
    if (signals > 1) {
      // A second Ctrl-C (or SIGTERM) means "now": skip the rest of the drain.
      process.exit(1);
    }
    void shutdown(signal).then((code) => process.exit(code));
  };
  process.on('SIGTERM', () => {
    onSignal('SIGTERM');
  });
  process.on('SIGINT', () => {
    onSignal('SIGINT');
  });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `gateway failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
  }
  process.exit(1);
});
