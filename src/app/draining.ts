/** Assembly step: the draining switch that SIGTERM flips (`shutdown.ts`) and readiness reads. */
import type { FastifyInstance } from 'fastify';

/** Whether the gateway is draining, and the switch. */
export interface Draining {
  isDraining(): boolean;
  /** From now on `/readyz` answers 503 and every response closes its connection. */
  start(): void;
}

/** Adds the hook that closes connections while draining, and answers the switch. */
export function registerDraining(app: FastifyInstance): Draining {
  let draining = false;
  // While draining, every response closes its connection: an idle keep-alive socket would hold close() open.
  app.addHook('onSend', (_request, reply, _payload, done) => {
    if (draining) void reply.header('connection', 'close');
    done();
  });
  return {
    isDraining: () => draining,
    start() {
      draining = true;
    },
  };
}
