/**
 * `npm run example`: the embedded emulator, the gateway (with `CORS_ORIGINS` set to the page's origin) and
 * the example front-end (examples/web, built with Vite and served as static files), then prints the URL.
 *
 * Settings: the gateway's own (`PORT`, `EMULATOR_PORT`, …) plus `EXAMPLE_PORT` (5173) for the page. The
 * page's trusted documents are added to `TRUSTED_DOCUMENTS`; `TRUSTED_DOCUMENTS_ONLY=true` runs nothing else.
 * Ctrl+C stops all three, as `npm start` stops (`src/app/run-gateway.ts`: draining, then a bounded close).
 */
import { ConfigError } from '../src/config/config-error.ts';
import { loadConfig } from '../src/config/load-config.ts';
import { DEMO } from '../emulator/index.ts';
import { runGateway } from '../src/app/run-gateway.ts';
import { StartProblem } from '../src/app/start-problem.ts';
import { EXAMPLE_TRUSTED_DOCUMENTS, buildExampleWeb, serveExampleWeb } from '../support/example-web.ts';

async function main(): Promise<void> {
  const pagePort = Number(process.env.EXAMPLE_PORT ?? 5173);
  if (!Number.isInteger(pagePort) || pagePort < 0 || pagePort > 65_535) {
    throw new ConfigError('Invalid setting EXAMPLE_PORT: must be a port number');
  }
  // Fail on a bad gateway setting before building anything.
  const base = loadConfig();
  if (base.upstream.kind === 'remote') {
    process.stdout.write('Upstream addresses are set: the example uses them instead of the emulator.\n');
  }

  process.stdout.write('Building the example page (examples/web) with Vite…\n');
  const dir = await buildExampleWeb();
  let graphqlUrl = '';
  const page = await serveExampleWeb({ dir, graphqlUrl: () => graphqlUrl, port: pagePort });
  // The same page opened as localhost has another origin: allow both spellings of the loopback page.
  const pageOrigins = [page.origin, page.origin.replace('//127.0.0.1:', '//localhost:')];
  const config = loadConfig({
    ...process.env,
    CORS_ORIGINS: [...new Set([...base.corsOrigins, ...pageOrigins])].join(','),
    // The page's production build sends document ids only: the gateway must know its manifest.
    TRUSTED_DOCUMENTS: [...new Set([...base.trustedDocuments.files, EXAMPLE_TRUSTED_DOCUMENTS])].join(','),
  });

  // The same process as `npm start` (the embedded emulator on the settings' UPSTREAM_* switches and the
  // team's object types, the gateway, the graceful shutdown on SIGINT/SIGTERM); the page stops with it.
  const { url: gatewayUrl, emulator } = await runGateway({ config, afterClose: () => page.close() }).catch(
    async (error: unknown) => {
      await page.close();
      throw error;
    },
  );
  graphqlUrl = `${gatewayUrl}/graphql`;

  process.stdout.write(
    [
      '',
      `Example page:  ${page.origin}/   <- open this`,
      `GraphQL:       ${graphqlUrl}   (CORS_ORIGINS=${config.corsOrigins.join(',')})`,
      config.landingPage ? `GraphiQL:      ${gatewayUrl}/graphiql` : '',
      emulator ? `Upstream:      embedded emulator at ${emulator.url}` : '',
      `Demo login:    ${DEMO.username} / ${DEMO.password} (or mobile ${DEMO.mobile})`,
      'Ctrl+C stops.',
      '',
    ]
      .filter((line, i, all) => line !== '' || i === 0 || i === all.length - 1)
      .join('\n') + '\n',
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    error instanceof ConfigError || error instanceof StartProblem
      ? `${error.message}\n`
      : `example failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
