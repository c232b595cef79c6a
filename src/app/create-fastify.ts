/** Assembly step: the Fastify instance, with the listener's limits, connection caps and timeouts from the settings. */
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { limitConnections } from '../http/capacity/connection-limits.ts';
import { httpServerOptions } from '../http/server-options.ts';
import { requestIdFor } from '../observability/request-log.ts';

/** Creates the instance; `logger` becomes Fastify's own. */
export function createFastify(config: GatewayConfig, logger: FastifyBaseLogger): FastifyInstance {
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
    // `request.ip` comes from x-forwarded-for only when the direct peer is one of these.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    ...httpServerOptions(config.http, logger),
  });
  limitConnections(app.server, config.connectionLimits, logger);
  return app;
}
