/**
 * The URL of a loopback port that was free a moment ago: connections to it are refused (an upstream that is
 * not listening).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function refusingUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  return `http://127.0.0.1:${port}`;
}
