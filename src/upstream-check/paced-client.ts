/** The gateway's upstream client with every call paced (`pacer.ts`). */
import type { UpstreamClient } from '../upstream/client/types.ts';
import type { Pacer } from './pacer.ts';

/** Wraps `client` so that each call waits its turn first. */
export function pacedClient(client: UpstreamClient, pacer: Pacer): UpstreamClient {
  const paced =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await pacer.pace();
      return call(...args);
    };
  return {
    loginJson: paced((username: string, password: string) => client.loginJson(username, password)),
    loginForm: paced((username: string, password: string) => client.loginForm(username, password)),
    getMetadata: paced((...args: Parameters<UpstreamClient['getMetadata']>) => client.getMetadata(...args)),
    getObject: paced((...args: Parameters<UpstreamClient['getObject']>) => client.getObject(...args)),
    getAll: paced((...args: Parameters<UpstreamClient['getAll']>) => client.getAll(...args)),
    save: paced((...args: Parameters<UpstreamClient['save']>) => client.save(...args)),
    update: paced((...args: Parameters<UpstreamClient['update']>) => client.update(...args)),
    close: () => client.close(),
  };
}
