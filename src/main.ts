/**
 * The command line (`npm start`): reads the settings, starts the emulator in-process when no upstream is
 * set, starts the gateway, and stops both cleanly on SIGTERM/SIGINT.
 */
import { ConfigError, loadConfig } from './config.ts';
import { startEmulator, DEMO } from './emulator/index.ts';
import { createGateway, type UpstreamUrls } from './server.ts';

async function main(): Promise<void> {
  const config = loadConfig();
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
  const gateway = await createGateway({ config, upstreamUrls });
  const url = await gateway.listen();
  gateway.app.log.info(
    { node: process.version, upstream: config.upstream.kind, production: config.production },
    `gateway listening on ${url}/graphql`,
  );
  const lines = [
    `GraphQL endpoint: ${url}/graphql`,
    config.landingPage ? `Apollo Sandbox:   open ${url}/graphql in a browser` : 'Landing page:     off',
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

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    gateway.app.log.info({ signal }, 'shutting down');
    void gateway
      .close()
      .then(() => stopEmulator?.())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          gateway.app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => {
    stop('SIGTERM');
  });
  process.on('SIGINT', () => {
    stop('SIGINT');
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
