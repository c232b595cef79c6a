/**
 * Test helper: an upstream client whose four base addresses all point at one behaviour of the
 * misbehaving server, plus the demo credentials tests send.
 */
import { createUpstreamClient } from '../../src/upstream/client/client.ts';
import type {
  UpstreamClient,
  UpstreamClientOptions,
  UpstreamCredentials,
} from '../../src/upstream/client/types.ts';
import { clientSettingsOf } from '../../src/upstream/client/client-settings.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { demoCredentials } from './demo-credentials.ts';

/** The client settings a user gets by default. */
const DEFAULT_CLIENT_SETTINGS = clientSettingsOf(loadConfig({}));

/** Credentials with a token distinctive enough to search for in errors and logs. */
export const CREDENTIALS: UpstreamCredentials = demoCredentials('demo', 'tok-SECRET-4c1e9b7f');

/** A client with every base address at `${baseUrl}/${behaviour}`; `overrides` win. */
export function clientFor(
  baseUrl: string,
  behaviour: string,
  overrides: Partial<UpstreamClientOptions> = {},
): UpstreamClient {
  return clientAt(`${baseUrl}/${behaviour}`, overrides);
}

/** A client with the default settings and every base address at `url`; `overrides` win. */
export function clientAt(url: string, overrides: Partial<UpstreamClientOptions> = {}): UpstreamClient {
  return createUpstreamClient({
    ...DEFAULT_CLIENT_SETTINGS,
    apiUrl: url,
    baseUrl: url,
    studioUrl: url,
    serverUrl: url,
    ...overrides,
  });
}

/** Runs `call` and returns what it threw (fails the test when it resolves). */
export async function failureOf(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it resolved');
}
