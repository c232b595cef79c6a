/**
 * Logins' own share of the upstream, successful ones included (each mints an upstream token): per client
 * network (an IPv4 address, or an IPv6 /64) and per account, a rate (logins per minute) and a concurrency
 * (logins in flight), counting unknown clients only; a known device of the account (a valid device token)
 * takes a turn of its account's known devices' own cell instead, so nobody else's logins spend it. Beyond either the login is answered `TOO_MANY_REQUESTS` (`reason: login_share`,
 * `retryAfter`) before any upstream call, so one address or one account flooding logins costs the upstream
 * a bounded trickle, and the resilience layer (`resilience.ts`) holds all logins together to one session's
 * share of the bulkhead besides: a login flood never takes the slots other users' reads need.
 *
 * The counts live in fixed tables of {@link SHARE_SLOTS} cells per kind, a cell chosen by a keyed hash
 * (`overflow-slot.ts`): the memory is the same for one address or a million, and two keys in one cell only
 * share its allowance (stricter for them, and an attacker cannot choose a victim's cell). Counts are this
 * replica's own: with N replicas the upstream sees at most N times the share.
 */
import { clientNetwork } from '../client-address/client-network.ts';
import { slotOf } from './overflow-slot.ts';

/** Cells per table (a power of two below `overflow-slot.ts`'s slot count, so the slot maps onto a cell). */
const SHARE_SLOTS = 4096;

const MINUTE_MILLIS = 60_000;

/** Options of {@link createLoginShare}; each names its setting. */
export interface LoginShareOptions {
  /** `LOGIN_MAX_PER_MINUTE_PER_ADDRESS`: logins started per client network per minute. */
  maxPerMinutePerAddress: number;
  /** `LOGIN_MAX_PER_MINUTE_PER_ACCOUNT`: logins started per account per minute. */
  maxPerMinutePerAccount: number;
  /** `LOGIN_MAX_CONCURRENT_PER_ADDRESS`: logins in flight per client network. */
  maxConcurrentPerAddress: number;
  /** `LOGIN_MAX_CONCURRENT_PER_ACCOUNT`: logins in flight per account. */
  maxConcurrentPerAccount: number;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
}

/** A login's turn: given back once its upstream call answered. */
export interface LoginTurn {
  release(): void;
}

/** See {@link createLoginShare}. */
export interface LoginShare {
  /**
   * A turn for a login of `account` from `clientIp`, or the seconds to wait when the share is spent. A
   * known device of the account (`knownDevice`) takes a turn of the account's known devices' own cell and
   * no address's: what unknown clients do, from any address, never spends it.
   */
  take(clientIp: string, account: string, knownDevice?: boolean): LoginTurn | { retryAfterSeconds: number };
  /**
   * A name's logins just turned out to belong to `account` (a login learnt the link, `account-links.ts`):
   * the logins started under the name this minute count against the account too, so a second name of an
   * account is no second allowance.
   */
  carryOver(name: string, account: string): void;
}

/** One kind of key's table: starts in the current minute, and logins in flight, per cell. */
function createTable(perMinute: number, concurrent: number, now: () => number) {
  const started = new Uint32Array(SHARE_SLOTS);
  const windowOf = new Float64Array(SHARE_SLOTS);
  const inFlight = new Uint32Array(SHARE_SLOTS);
  /** Starts `cell`'s count afresh when its minute is over; answers the current minute. */
  function roll(cell: number): number {
    const minute = Math.floor(now() / MINUTE_MILLIS) * MINUTE_MILLIS;
    if (windowOf[cell] !== minute) {
      windowOf[cell] = minute;
      started[cell] = 0;
    }
    return minute;
  }
  return {
    /** The wait in seconds when `cell` has no room, else 0. */
    refusal(cell: number): number {
      const minute = roll(cell);
      if ((started[cell] ?? 0) >= perMinute)
        return Math.max(1, Math.ceil((minute + MINUTE_MILLIS - now()) / 1000));
      if ((inFlight[cell] ?? 0) >= concurrent) return 1;
      return 0;
    },
    take(cell: number): void {
      started[cell] = (started[cell] ?? 0) + 1;
      inFlight[cell] = (inFlight[cell] ?? 0) + 1;
    },
    release(cell: number): void {
      inFlight[cell] = Math.max(0, (inFlight[cell] ?? 0) - 1);
    },
    /** Adds the starts of `from`'s current minute to `to`'s. */
    carry(from: number, to: number): void {
      roll(from);
      roll(to);
      started[to] = (started[to] ?? 0) + (started[from] ?? 0);
    },
  };
}

/** A turn that gives its cells back (`giveBack`) at its first release only: a second release frees nothing. */
function turnGivingBack(giveBack: () => void): LoginTurn {
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      giveBack();
    },
  };
}

/** Creates the share. */
export function createLoginShare(options: LoginShareOptions): LoginShare {
  const now = options.now ?? Date.now;
  const addresses = createTable(options.maxPerMinutePerAddress, options.maxConcurrentPerAddress, now);
  const accounts = createTable(options.maxPerMinutePerAccount, options.maxConcurrentPerAccount, now);
  // Known devices of an account: the same allowance as the account's, in a table unknown clients never touch.
  const knownDevices = createTable(options.maxPerMinutePerAccount, options.maxConcurrentPerAccount, now);
  const accountCellOf = (account: string) => slotOf(`share\0account\0${account}`) % SHARE_SLOTS;
  return {
    carryOver(name, account) {
      const from = accountCellOf(name);
      const to = accountCellOf(account);
      if (from !== to) accounts.carry(from, to);
    },

    take(clientIp, account, knownDevice = false) {
      if (knownDevice) {
        // The account's own devices share one cell of their own (a stolen token is bounded as the account).
        const knownCell = slotOf(`share\0known\0${account}`) % SHARE_SLOTS;
        const wait = knownDevices.refusal(knownCell);
        if (wait > 0) return { retryAfterSeconds: wait };
        knownDevices.take(knownCell);
        return turnGivingBack(() => {
          knownDevices.release(knownCell);
        });
      }
      const addressCell = slotOf(`share\0net\0${clientNetwork(clientIp)}`) % SHARE_SLOTS;
      const accountCell = accountCellOf(account);
      const wait = Math.max(addresses.refusal(addressCell), accounts.refusal(accountCell));
      if (wait > 0) return { retryAfterSeconds: wait };
      addresses.take(addressCell);
      accounts.take(accountCell);
      return turnGivingBack(() => {
        addresses.release(addressCell);
        accounts.release(accountCell);
      });
    },
  };
}
