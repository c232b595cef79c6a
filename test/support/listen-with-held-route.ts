/**
 * Adds `GET /hold` (answered `{ held: true }` once the promise `held()` answers at that time settles: a request
 * kept in flight until the test lets go) and `GET /quick` to `app`, then listens on a loopback port and
 * answers it; for the connection and pipelining tests.
 */
import type { FastifyInstance } from 'fastify';

export async function listenWithHeldRoute(
  app: FastifyInstance,
  held: () => Promise<unknown>,
): Promise<number> {
  app.get('/hold', async () => {
    await held();
    return { held: true };
  });
  app.get('/quick', () => ({ quick: true }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
