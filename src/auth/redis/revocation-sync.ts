/**
 * Keeps Redis holding every unexpired revocation this replica knows, whatever happened to Redis meanwhile:
 *
 * - a revocation that could not be written (Redis away, frozen, bypassed, or full) is counted as
 *   *unshared*; the replica honours it from its own list, and writes its whole list again as soon as
 *   Redis takes writes (retried every `retryEveryMillis`, and at once when a connection is ready or the
 *   breaker closes);
 * - an emptied Redis (restarted without its data, flushed, failed over to an empty replica) is noticed by
 *   a marker key of this replica (`<prefix>_replica:<random id>`), written after each complete refill: one
 *   `PEXPIRE` on every new connection and every `checkEveryMillis` finds it gone, and the whole list is
 *   written again. The marker is this replica's own: another replica's refill says nothing about what
 *   this one knows.
 *
 * A refill writes the list in pipelined batches of {@link BATCH} `SET … PX` (the token's remaining
 * lifetime), so it costs Redis one round trip per batch; it stops at the first batch Redis refuses and the
 * next attempt starts over. Only single entries are written: a user's cut-off ("every session issued before
 * its newest logout", `revocation-ledger.ts`) stays in this replica (its tokens were written one by one
 * when they were logged out, so only an emptied Redis loses them). A revocation whose write failed is kept
 * here until a refill has written it (at most `maxUnsent`): the ledger may fold it into a cut-off meanwhile
 * (a user logging out more than `SESSION_REVOCATIONS_PER_USER` sessions during an outage), and a refill of
 * the ledger's single entries alone would then never tell the other replicas that its token is dead.
 */
import { randomUUID } from 'node:crypto';
import type { Fold, UnexpiredEntry } from '../revocation-ledger.ts';
import type { RedisGuard } from './redis-guard.ts';

/** Where a user's cut-off is kept: tokens of that user issued before its value (in seconds) are dead. */
export function cutOffKey(keyPrefix: string, ownerKey: string): string {
  return `${keyPrefix}_user:${ownerKey}`;
}

/**
 * Sets a cut-off unless a later one is there (replicas folding one user at once must not lower it), and
 * keeps it as long as the longest-lived token either covers.
 */
const RAISE_CUT_OFF = `
local ttl = math.max(tonumber(ARGV[2]), redis.call('PTTL', KEYS[1]))
local current = redis.call('GET', KEYS[1])
local value = ARGV[1]
if current and tonumber(current) > tonumber(ARGV[1]) then value = current end
redis.call('SET', KEYS[1], value, 'PX', ttl)
return 1
`;

/** Revocations per pipelined round trip of a refill. */
const BATCH = 500;

/** The marker lives a day unless refreshed (every check refreshes it): a replica gone leaves no key behind. */
const MARKER_TTL_MILLIS = 24 * 3600 * 1000;

/** What a refill did, for its log line. */
export interface RefillReport {
  /** Why: the marker was gone (Redis lost its data), or revocations were left unwritten. */
  cause: 'redis_emptied' | 'unshared';
  written: number;
  millis: number;
}

/** Options of {@link createRevocationSync}. */
export interface RevocationSyncOptions<Reason extends string> {
  guard: RedisGuard;
  /** Revocations are `<keyPrefix>:<tokenId>`. */
  keyPrefix: string;
  /** This replica's list. */
  entries: () => Iterable<UnexpiredEntry<Reason>>;
  /** This replica's cut-offs (written again into an emptied Redis). Default: none. */
  cutOffs?: () => Iterable<Fold>;
  now: () => number;
  /** How often the marker is checked while nothing is owed. Default 10,000. */
  checkEveryMillis?: number;
  /** How often a refill is tried while revocations are unshared. Default 1,000. */
  retryEveryMillis?: number;
  onRefill?: (report: RefillReport) => void;
  /** Failed writes kept to be written by the next refill, whatever the ledger folds. Default 100,000. */
  maxUnsent?: number;
}

/** See {@link createRevocationSync}. */
export interface RevocationSync<Reason extends string> {
  /** Writes one revocation; a failure is counted as unshared and repaired by the next refill. Never throws. */
  write(tokenId: string, reason: Reason, ttlMillis: number): Promise<void>;
  /**
   * Shares a user's cut-off (never lowering one another replica wrote), then deletes the single entries
   * it replaced, so Redis holds no more of one user than this replica's list does. Failed, nothing is
   * deleted: the single entries keep every replica refusing those tokens. Never throws.
   */
  writeCutOff(fold: Fold): Promise<void>;
  /** Revocations written to this replica only since the last complete refill. */
  unshared(): number;
  /** Checks the marker and refills if needed (the timers call it; tests may). Never throws. */
  sync(): Promise<void>;
  close(): void;
}

/** Starts keeping Redis in step with this replica's list. */
export function createRevocationSync<Reason extends string>(
  options: RevocationSyncOptions<Reason>,
): RevocationSync<Reason> {
  const { guard, keyPrefix, now } = options;
  const checkEvery = options.checkEveryMillis ?? 10_000;
  const retryEvery = options.retryEveryMillis ?? 1_000;
  const marker = `${keyPrefix}_replica:${randomUUID()}`;
  let owed = 0;
  // The failed writes themselves: the ledger may fold them away before Redis takes writes again.
  const unsent = new Map<string, UnexpiredEntry<Reason>>();
  const maxUnsent = options.maxUnsent ?? 100_000;
  // Until its marker is first written, this replica could not tell an emptied Redis: it retries soon.
  let marked = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const keyOf = (tokenId: string) => `${keyPrefix}:${tokenId}`;

  async function setCutOff(fold: Fold): Promise<boolean> {
    const ttlMillis = Math.ceil(fold.untilSeconds * 1000 - now());
    if (ttlMillis <= 0) return false;
    await guard.run(
      // Redis's EVAL (a Lua script run by Redis, atomically), through `call`: nothing here evaluates code.
      (redis) =>
        redis.call(
          'EVAL',
          RAISE_CUT_OFF,
          1,
          cutOffKey(keyPrefix, fold.ownerKey),
          fold.cutOffSeconds,
          ttlMillis,
        ),
      'write',
    );
    return true;
  }

  function schedule(): void {
    clearTimeout(timer);
    if (closed) return;
    timer = setTimeout(() => void sync(), owed > 0 || !marked ? retryEvery : checkEvery).unref();
  }

  async function writeBatch(batch: UnexpiredEntry<Reason>[]): Promise<number> {
    const at = now();
    const live = batch.filter((entry) => entry.expiresAtSeconds * 1000 > at);
    if (live.length === 0) return 0;
    await guard.run(async (redis) => {
      const pipeline = redis.pipeline();
      for (const { tokenId, reason, expiresAtSeconds } of live) {
        pipeline.set(keyOf(tokenId), reason, 'PX', Math.ceil(expiresAtSeconds * 1000 - at));
      }
      const failure = (await pipeline.exec())?.find(([error]) => error !== null)?.[0];
      if (failure) throw failure;
    }, 'write');
    return live.length;
  }

  async function refill(cause: RefillReport['cause']): Promise<void> {
    const owedBefore = owed;
    const unsentBefore = [...unsent.values()];
    const started = now();
    let written = 0;
    let batch: UnexpiredEntry<Reason>[] = [];
    const toWrite = function* () {
      yield* unsentBefore;
      for (const entry of options.entries()) if (!unsent.has(entry.tokenId)) yield entry;
    };
    for (const entry of toWrite()) {
      batch.push(entry);
      if (batch.length < BATCH) continue;
      written += await writeBatch(batch);
      batch = [];
    }
    written += await writeBatch(batch);
    for (const fold of options.cutOffs?.() ?? []) if (await setCutOff(fold)) written += 1;
    await guard.run((redis) => redis.set(marker, '1', 'PX', MARKER_TTL_MILLIS), 'write');
    marked = true;
    // Revocations that failed while this refill ran may have missed it: they stay owed.
    owed -= owedBefore;
    for (const entry of unsentBefore) if (unsent.get(entry.tokenId) === entry) unsent.delete(entry.tokenId);
    // A replica's first marker, over a list still empty, is no news.
    if (written > 0 || owedBefore > 0) options.onRefill?.({ cause, written, millis: now() - started });
  }

  async function attempt(): Promise<void> {
    if (guard.status() === 'bypassed') return;
    const kept = await guard.run((redis) => redis.pexpire(marker, MARKER_TTL_MILLIS), 'read');
    if (kept === 1) marked = true;
    if (kept === 1 && owed === 0) return;
    await refill(kept === 1 ? 'unshared' : 'redis_emptied');
  }

  /** One attempt at a time; the next is scheduled once it has settled (never before `running` is set). */
  function sync(): Promise<void> {
    running ??= attempt()
      .catch(() => {
        // Redis failed again (the guard has said so): the next attempt starts over.
      })
      .finally(() => {
        running = undefined;
        schedule();
      });
    return running;
  }

  guard.onReturn(() => void sync());
  void sync();

  return {
    async write(tokenId, reason, ttlMillis) {
      try {
        await guard.run((redis) => redis.set(keyOf(tokenId), reason, 'PX', ttlMillis), 'write');
      } catch {
        owed += 1;
        if (unsent.size < maxUnsent) {
          unsent.set(tokenId, { tokenId, reason, expiresAtSeconds: (now() + ttlMillis) / 1000 });
        }
        if (running === undefined) schedule();
      }
    },
    async writeCutOff(fold) {
      try {
        if (!(await setCutOff(fold)) || fold.replaced.length === 0) return;
        await guard.run((redis) => redis.del(...fold.replaced.map(keyOf)), 'write');
      } catch {
        // Not shared: the single entries stay in Redis (each refused there until its expiry), so nothing
        // is lost; the cut-off is written by the next refill into an emptied Redis.
      }
    },
    unshared: () => owed,
    sync,
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
