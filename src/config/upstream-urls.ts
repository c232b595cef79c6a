/**
 * The upstream's four base addresses as part of the settings: read from the environment (`loadConfig`), or
 * all four at the embedded emulator's address once it listens. The only place the URL object is built.
 */
import type { UpstreamUrls } from '../upstream/client/types.ts';
import type { GatewayConfig } from './gateway-config.ts';

/** All four addresses at one base: the emulator serves every operation at its root. */
export function upstreamUrlsAt(base: string): UpstreamUrls {
  return { apiUrl: base, baseUrl: base, studioUrl: base, serverUrl: base };
}

/** `config` with the embedded emulator's addresses filled in (it must be the embedded target). */
export function withEmulatorAt(config: GatewayConfig, emulatorUrl: string): GatewayConfig {
  if (config.upstream.kind !== 'embedded') {
    throw new Error('withEmulatorAt: the settings name a remote upstream, not the embedded emulator');
  }
  return { ...config, upstream: { ...config.upstream, urls: upstreamUrlsAt(emulatorUrl) } };
}

/**
 * The addresses a gateway calls. Throws for the embedded emulator before it listens: whoever starts it
 * (`src/main.ts`) passes `withEmulatorAt(config, url)`.
 */
export function upstreamUrlsOf(config: GatewayConfig): UpstreamUrls {
  const { urls } = config.upstream;
  if (urls === undefined) {
    throw new Error(
      'The embedded emulator has not started: build the gateway from withEmulatorAt(config, url)',
    );
  }
  return urls;
}
