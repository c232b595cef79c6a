/**
 * What a gateway peer (P4 and its variants) needs besides its process: its production environment, and
 * the sessions the workloads send, one per bench user, logged in through GraphQL before the run.
 */
import { randomBytes } from 'node:crypto';
import type { BenchSession } from './bench-users.ts';
import { DEMO } from './emulator-client.ts';
import { GATEWAY_LOGIN_QUERY } from './gateway-variants.ts';
import { PRODUCTION_PROCESS_ENV } from '../support/start-command.ts';

/** The entry of `list` at `index`; a missing one is a bug of the bench, not a peer's failure. */
export function at<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`no bench session ${index}`);
  return item;
}

async function gatewayLogin(url: string, user: { username: string; password: string }): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: GATEWAY_LOGIN_QUERY,
      variables: { u: user.username, p: user.password },
    }),
  });
  const answer = (await response.json()) as { data?: { login?: { token?: unknown } } };
  const token = answer.data?.login?.token;
  if (typeof token !== 'string') throw new Error(`the gateway refused the login of ${user.username}`);
  return token;
}

/**
 * Logs the demo user, then every bench user, in through the gateway's GraphQL `login`; answers the
 * `authorization` header of a session (`undefined`: the demo user's).
 */
export async function gatewaySessions(
  url: string,
  sessions: readonly BenchSession[],
): Promise<(session: number | undefined) => Record<string, string>> {
  const demo = await gatewayLogin(url, DEMO);
  const perConnection: string[] = [];
  for (const user of sessions) perConnection.push(await gatewayLogin(url, user));
  return (session: number | undefined) => ({
    authorization: `Bearer ${session === undefined ? demo : at(perConnection, session)}`,
  });
}

/**
 * The gateway's production settings (with the container's process environment), all four upstream
 * addresses on the emulator.
 */
export function gatewayEnv(emulatorUrl: string, port: number): Record<string, string> {
  return {
    ...PRODUCTION_PROCESS_ENV,
    NODE_ENV: 'production',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    API_URL: emulatorUrl,
    BASE_URL: emulatorUrl,
    STUDIO_URL: emulatorUrl,
    SERVER_URL: emulatorUrl,
    APPLICATION_CODE: DEMO.applicationCode,
    ORGANIZATION_CODE: DEMO.organizationCode,
    HOST: '127.0.0.1',
    PORT: String(port),
    // Every load connection comes from 127.0.0.1, as every connection of the shipped pod comes from its
    // front-end proxy: the same setting as deploy/kubernetes/gateway-config.yaml (W5 opens 100).
    MAX_CONNECTIONS_PER_ADDRESS: '1024',
  };
}
