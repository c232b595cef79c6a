/** Assembly step: listening, and the base URL a person (or a test) can call. */
import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../config/gateway-config.ts';

/** Listens on `config.host:config.port` and answers `http://host:port` (the port the system chose for `0`). */
export async function listenUrl(app: FastifyInstance, config: GatewayConfig): Promise<string> {
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  // A wildcard address is no place to send a request to: the loopback of the same host is.
  return `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
}
