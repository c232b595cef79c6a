/**
 * Assembly step: the Fastify instance, with the listener's limits, connection caps and timeouts from the
 * settings, and its listening.
 */
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { limitConnections } from '../http/capacity/connection-limits.ts';
import { limitPipelining } from '../http/capacity/pipelined-requests.ts';
import { httpServerOptions } from '../http/server-options.ts';
import { proxyTrust } from '../http/proxy-trust.ts';
import type { GatewayMetrics } from '../observability/metrics.ts';
import { requestIdFor } from '../observability/request-log.ts';

/** Creates the instance; `logger` becomes Fastify's own; `metrics` read its connections and requests. */
export function createFastify(
  config: GatewayConfig,
  logger: FastifyBaseLogger,
  metrics: GatewayMetrics,
): FastifyInstance {
  const app = Fastify({
    // Typed as Fastify's logger interface, so the instance keeps Fastify's default logger type everywhere.
    loggerInstance: logger,
    bodyLimit: config.maxBodyBytes,
    // One line per request is written by our own hook, with the operation and its upstream cost.
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    // `x-request-id` is read (and checked) by genReqId: Fastify would take any header value as is.
    requestIdHeader: false,
    genReqId: requestIdFor,
    // `request.ip` comes from x-forwarded-for only through believed proxies (`proxy-trust.ts`).
    trustProxy: proxyTrust(config.trustedProxies, config.trustedOuterProxies),
    ...httpServerOptions(config.http, logger),
  });
  // Bodies are JSON only. Fastify parses text/plain by default, which handed a `fetch` POST without a content
  // type (sent as text/plain) to Apollo, answered with Apollo's own 400; unparsed, it is our 415, as every
  // other type is. Not read as JSON: text/plain is what a cross-site form may send without a preflight.
  app.removeContentTypeParser('text/plain');
  // First: the connection caps' own listener must see every request Node parses, waiting ones included.
  const requests = limitPipelining(app.server, config.connectionLimits, logger);
  const connections = limitConnections(app.server, config.connectionLimits, logger);
  const { maxConnections } = config.connectionLimits;
  metrics.trackCapacity('connections', () => connections.open(), maxConnections);
  // Waiting connections are among the open ones: all of them waiting is a churning flood holding the cap.
  metrics.trackCapacity('connections_waiting', () => connections.waiting(), maxConnections);
  // One request runs per connection (`pipelined-requests.ts`): the connection cap is the requests' too.
  metrics.trackCapacity('requests', () => requests.running(), maxConnections);
  return app;
}

/** Listens on `config.host:config.port` and answers `http://host:port` (the port the system chose for `0`). */
export async function listenUrl(app: FastifyInstance, config: GatewayConfig): Promise<string> {
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  // A wildcard address is no place to send a request to: the loopback of the same host is.
  return `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
}
