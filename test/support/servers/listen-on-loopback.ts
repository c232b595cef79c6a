/** Serves a test's own HTTP server (a proxy, a fake upstream) on a free loopback port. */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listening server. */
export interface Listening {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** Cuts open connections (a test's server must not hold the run up) and stops listening. */
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 on a port the OS picks. */
export async function listenOnLoopback(server: Server): Promise<Listening> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}
