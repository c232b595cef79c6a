/**
 * The fixed set of counters the login limiter falls back on once its table is full (`login-limiter.ts`):
 * every account lands in one of {@link OVERFLOW_SLOTS} slots, so a flood of invented accounts or addresses
 * adds no counter, while failures on one account still add up in its slot.
 */

/** How many overflow counters there are, at most: each is one counter of the limiter's store. */
export const OVERFLOW_SLOTS = 4096;

/** The slot of an account key (FNV-1a; the key is already a hash, so any even spread will do). */
export function slotOf(account: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < account.length; i++) {
    hash = Math.imul(hash ^ account.charCodeAt(i), 0x01000193);
  }
  return (hash >>> 0) % OVERFLOW_SLOTS;
}
