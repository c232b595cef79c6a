/**
 * The environment of the gateway started from the image's layout in the build and deploy tests: production on
 * loopback `port`, silent, the demo tenant, every upstream URL `upstream`; `extra` added last (it may replace
 * any of them).
 */
export function imageEnv(
  port: number,
  upstream: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'silent',
    SESSION_SECRET: 's'.repeat(48),
    APPLICATION_CODE: 'demo',
    ORGANIZATION_CODE: 'acme',
    ...{ API_URL: upstream, BASE_URL: upstream, STUDIO_URL: upstream, SERVER_URL: upstream },
    ...extra,
  };
}
