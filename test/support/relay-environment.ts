/**
 * A Relay environment with a fresh store whose network POSTs each operation to `graphqlUrl`, as an app's
 * would, with the headers `headers()` answers at the time of the request; `onSend` is told each operation's
 * name.
 */
import {
  Environment,
  Network,
  RecordSource,
  Store,
  type FetchFunction,
  type GraphQLResponse,
} from 'relay-runtime';

export function relayEnvironment(
  graphqlUrl: string,
  headers: () => Record<string, string>,
  onSend?: (name: string) => void,
): Environment {
  const fetchFn: FetchFunction = async (params, variables) => {
    onSend?.(params.name);
    const response = await fetch(graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers() },
      body: JSON.stringify({ query: params.text, variables }),
    });
    return (await response.json()) as GraphQLResponse;
  };
  return new Environment({ network: Network.create(fetchFn), store: new Store(new RecordSource()) });
}
