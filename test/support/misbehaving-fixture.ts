/**
 * The misbehaving server for a block's tests, with upstream clients aimed at one behaviour each (or, for
 * `refused`, at a closed port), closed after every test.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { UpstreamClient, UpstreamClientOptions } from '../../src/upstream/client/types.ts';
import { clientFor } from './client-for.ts';
import { lateBound } from './late-bound.ts';
import {
  findClosedPort,
  startMisbehavingServer,
  type MisbehavingServer,
} from './servers/misbehaving-server.ts';

/** What {@link useMisbehavingServer} hands a test file. */
export interface MisbehavingFixture {
  server: MisbehavingServer;
  /** A client for `behaviour` (a path of the server, or `refused`), closed after the current test. */
  client: (behaviour: string, options?: Partial<UpstreamClientOptions>) => UpstreamClient;
}

/** Starts the server before the calling block's tests; resets it after each test and closes it after all. */
export function useMisbehavingServer(): MisbehavingFixture {
  const [server, setServer] = lateBound<MisbehavingServer>('the misbehaving server');
  const clients: UpstreamClient[] = [];
  let running: MisbehavingServer | undefined;
  let refusedUrl = '';
  beforeAll(async () => {
    running = await startMisbehavingServer();
    setServer(running);
    refusedUrl = `http://127.0.0.1:${await findClosedPort()}`;
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    running?.reset();
  });
  afterAll(async () => {
    await running?.close();
  });
  return {
    server,
    client: (behaviour, options = {}) => {
      const created = clientFor(behaviour === 'refused' ? refusedUrl : server.url, behaviour, options);
      clients.push(created);
      return created;
    },
  };
}
