/**
 * The fixed set of counters the login limiter falls back on once its table is full (`login-limiter.ts`):
 * every account (and, for the per-IP limit, every client network) lands in one of {@link OVERFLOW_SLOTS}
 * slots, so a flood of invented accounts or addresses adds no counter, while failures on one account still
 * add up in its slot.
 */
import { createHmac, randomBytes } from 'node:crypto';

/** How many overflow counters there are, at most: each is one counter of the limiter's store. */
const OVERFLOW_SLOTS = 4096;

/**
 * Keys the slot mapping. Without it anyone could compute which accounts share a slot with a victim and
 * block the victim's new clients by failing on a slot-mate; with a secret of this process only, slot-mates
 * cannot be found from the names (replicas map differently, which only spreads the slots further).
 */
const SLOT_SECRET = randomBytes(32);

/** The slot of a counter key (an account key, or `net\0<network>`): HMAC-SHA-256 with this process's secret. */
export function slotOf(key: string): number {
  return createHmac('sha256', SLOT_SECRET).update(key).digest().readUInt32BE(0) % OVERFLOW_SLOTS;
}
