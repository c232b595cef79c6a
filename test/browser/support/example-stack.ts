/**
 * What `npm run example` runs, on free ports: the emulator and the gateway (with `CORS_ORIGINS` set to the
 * page's origin), and the example page built by Vite into a temporary folder and served statically.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildExampleWeb, serveExampleWeb } from '../../../scripts/example-web.ts';
import { startHarness, type Harness } from '../../support/gateway-harness.ts';

/** The running stack. */
export interface ExampleStack {
  harness: Harness;
  /** The page: `http://127.0.0.1:PORT/`. */
  pageUrl: string;
  /** The gateway's base URL (`/graphql`, `/graphiql` are below it). */
  gatewayUrl: string;
  close(): Promise<void>;
}

/** Builds the page and starts everything (`env`: more gateway settings); `close()` in `afterAll`. */
export async function startExampleStack(env: Record<string, string> = {}): Promise<ExampleStack> {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-example-web-'));
  await buildExampleWeb(dir);
  let graphqlUrl = '';
  const page = await serveExampleWeb({ dir, graphqlUrl: () => graphqlUrl });
  const harness = await startHarness({ env: { ...env, CORS_ORIGINS: page.origin } });
  graphqlUrl = harness.graphqlUrl;
  return {
    harness,
    pageUrl: `${page.origin}/`,
    gatewayUrl: harness.graphqlUrl.replace(/\/graphql$/, ''),
    async close() {
      await page.close();
      await harness.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
