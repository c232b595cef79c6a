/**
 * Coalescing identical in-flight reads across requests: when many front-ends ask the same thing with the
 * same session at the same moment, the upstream answers once. Nothing is kept after the call settles, so
 * this never serves stale data; per-request caching is the loaders' job.
 */
import { createHash } from 'node:crypto';
import { criteriaKey } from './criteria-key.ts';
import type { Criterion, UpstreamCredentials, UpstreamReads } from '../client/types.ts';
import { READ_OPERATIONS, wrapOperations } from '../operations.ts';

/** A read handle whose reads are shared while in flight. */
export type CoalescingReads = UpstreamReads & {
  /** Distinct reads currently in flight (each may have many waiters). */
  inflightCount(): number;
};

/**
 * A key naming who calls, without holding the raw `apiToken` or session cookie: a SHA-256 over every
 * credential. Two callers share a read only when every credential is equal, so one tenant never sees another's
 * answer, and two cookie sessions (whose `apiToken` is empty alike) never share one.
 */
export function credentialsKey(credentials: UpstreamCredentials): string {
  const material = JSON.stringify([
    credentials.username,
    credentials.apiToken,
    credentials.applicationCode,
    credentials.organizationCode ?? null,
    credentials.sessionCookie ?? null,
  ]);
  return createHash('sha256').update(material).digest('base64url');
}

/**
 * Wraps the read handle `client` so that identical concurrent reads (`getObject`, `getAll`, `getMetadata`)
 * with the same credentials make one upstream call; every waiter gets its answer or its failure. It has no
 * writes or logins to share: those go through the write handle, where two saves are two saves. Waiters
 * share the same answer object: treat it as read-only.
 */
export function withCoalescing(client: UpstreamReads): CoalescingReads {
  const inflight = new Map<string, Promise<unknown>>();
  // A SHA-256 per call was a tenth of the coalescing cost. The gateway passes one frozen credentials object
  // per session: its key is computed once. Objects that could still change are hashed every time.
  const keys = new WeakMap<UpstreamCredentials, string>();
  function keyOf(credentials: UpstreamCredentials): string {
    if (!Object.isFrozen(credentials)) return credentialsKey(credentials);
    let key = keys.get(credentials);
    if (key === undefined) {
      key = credentialsKey(credentials);
      keys.set(credentials, key);
    }
    return key;
  }

  const shared = wrapOperations(client, READ_OPERATIONS, (operation, args, call) => {
    // The credentials are keyed by hash; criteria by their canonical key, so that order does not matter.
    const rest = args.slice(1).map((arg) => (Array.isArray(arg) ? criteriaKey(arg as Criterion[]) : arg));
    const key = JSON.stringify([operation.method, keyOf(args[0] as UpstreamCredentials), rest]);
    const existing = inflight.get(key);
    if (existing !== undefined) return existing;
    // `call` never throws synchronously (`wrapOperations`): the entry is in the map before it settles.
    const settled = call().finally(() => {
      // Settled: the next identical read asks the upstream again.
      if (inflight.get(key) === settled) inflight.delete(key);
    });
    inflight.set(key, settled);
    return settled;
  });

  return { ...shared, inflightCount: () => inflight.size };
}
