/**
 * A fetch whose connections leave from a chosen local address: "another client" on the same machine.
 * Linux routes all of 127.0.0.0/8 to the loopback interface, so `127.0.0.2` reaches a gateway listening on
 * `127.0.0.1` as a different peer address.
 */
import { Agent, fetch as undiciFetch } from 'undici';

/** A fetch-like function (for `postGraphql`) and a `close` that ends its connections. */
export interface FetchFrom {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  close(): Promise<void>;
}

/** Connects from `localAddress` (e.g. `127.0.0.2`). */
export function fetchFrom(localAddress: string): FetchFrom {
  // undici 8 takes it as a client option: `connect.localAddress` is overridden by the client's (none).
  const agent = new Agent({ localAddress });
  return {
    fetch: async (url, init) => {
      const { method, headers, body } = init;
      const response = await undiciFetch(url, {
        dispatcher: agent,
        ...(method === undefined ? {} : { method }),
        headers: Object.fromEntries(new Headers(headers)),
        body: typeof body === 'string' ? body : null,
      });
      // Re-wrapped in the global class: undici's npm copy has its own `Response`.
      return new Response(await response.arrayBuffer(), {
        status: response.status,
        headers: Object.fromEntries(response.headers),
      });
    },
    close: () => agent.close(),
  };
}
