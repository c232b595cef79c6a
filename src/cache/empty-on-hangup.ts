/**
 * The operator's way to empty a replica's response cache without a restart: `kill -HUP <pid>`. A signal, not
 * an HTTP route: the gateway guards none of its operational routes itself (the network keeps `/metrics` and
 * the probes internal), and a route anyone reaching the port could call would send every read upstream.
 */
import type { ResponseCache } from './response-cache.ts';

/** Where the emptying is reported. */
export interface HangupLog {
  info(object: object, message: string): void;
}

/** Empties `cache` on every SIGHUP from now on; answers the function that stops it. */
export function emptyOnHangup(cache: ResponseCache, log: HangupLog): () => void {
  const empty = () => {
    const heldChars = cache.size();
    cache.clear();
    log.info({ event: 'cache_cleared', heldChars }, 'response cache emptied (SIGHUP)');
  };
  process.on('SIGHUP', empty);
  return () => {
    process.off('SIGHUP', empty);
  };
}
