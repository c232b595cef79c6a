/** The one free-port helper of the tests, the soak and the bench. */
import { once } from 'node:events';
import { createServer } from 'node:net';

/**
 * A loopback port that was free a moment ago (the OS picked it). The caller binds it right after; a child
 * process that must be told its port up front (so that we know where to wait for it) needs this.
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const server = createServer();
  server.listen(0, host);
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  return port;
}
