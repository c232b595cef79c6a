/**
 * What `npm run example` runs, on free ports: the emulator and the gateway (with `CORS_ORIGINS` set to the
 * page's origin and the page's trusted documents only, as in production), and the example page built by
 * Vite into a temporary folder and served statically. A second gateway on the same emulator accepts any
 * document, for the tools that write their own (GraphiQL, Sandbox).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXAMPLE_TRUSTED_DOCUMENTS, buildExampleWeb, serveExampleWeb } from '../../../support/example-web.ts';
import { startHarness, type Harness } from '../gateway-harness.ts';

/** The running stack. */
export interface ExampleStack {
  /** The page's gateway: trusted documents only. */
  harness: Harness;
  /** The page: `http://127.0.0.1:PORT/`. */
  pageUrl: string;
  /** The page's gateway's base URL (`/graphql` is below it). */
  gatewayUrl: string;
  /** A gateway on the same emulator that runs any document (`/graphql`, `/graphiql` below its base URL). */
  tools: Harness;
  /** The tools gateway's base URL. */
  toolsUrl: string;
  close(): Promise<void>;
}

/** Builds the page and starts everything (`env`: more gateway settings); `close()` in `afterAll`. */
export async function startExampleStack(env: Record<string, string> = {}): Promise<ExampleStack> {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-example-web-'));
  await buildExampleWeb(dir);
  let graphqlUrl = '';
  const page = await serveExampleWeb({ dir, graphqlUrl: () => graphqlUrl });
  const harness = await startHarness({
    env: {
      ...env,
      CORS_ORIGINS: page.origin,
      TRUSTED_DOCUMENTS: EXAMPLE_TRUSTED_DOCUMENTS,
      TRUSTED_DOCUMENTS_ONLY: 'true',
    },
  });
  const tools = await startHarness({ env, upstream: harness.emulator });
  graphqlUrl = harness.graphqlUrl;
  return {
    harness,
    pageUrl: `${page.origin}/`,
    gatewayUrl: harness.graphqlUrl.replace(/\/graphql$/, ''),
    tools,
    toolsUrl: tools.graphqlUrl.replace(/\/graphql$/, ''),
    async close() {
      await page.close();
      await tools.close();
      await harness.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
