/**
 * Debian's Chromium for the browser tests, driven by playwright-core (which never downloads a browser of
 * its own). Installs the Debian package when it is missing, as root, in CI too.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { ensureDebianPackage } from '../debian-package.ts';

/** Debian's Chromium binary. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * The flags of a headless Chromium on a machine with no network but loopback: without the
 * background-networking ones, Chromium keeps trying Google's hosts at every start.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

/**
 * Installs Debian's `chromium` package unless `/usr/bin/chromium` is there (a minute or two), one apt-get at
 * a time across test files.
 */
export async function ensureChromium(): Promise<void> {
  const installed = await ensureDebianPackage({ binary: CHROMIUM_PATH, packageName: 'chromium' });
  if (!installed.ok) throw new Error(installed.reason);
}

/** A browser with a fresh, empty profile; `close` removes the profile. */
export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Launches Chromium with a new `--user-data-dir` (Playwright passes it for a persistent context). */
export async function launchChromium(): Promise<TestBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'gateway-browser-test-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1100, height: 800 },
    // Generous: a loaded machine starts Chromium slowly; a launch that succeeds never waits for it.
    timeout: 180_000,
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
