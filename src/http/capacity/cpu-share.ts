/**
 * The gateway's own CPU, shared per caller. Parsing, validation, execution, serialization and answer
 * parsing run on one event loop: a caller looping on cheap requests (`{ __typename }` pipelined on eight
 * connections, pages coalesced upstream, requests refused after a pattern check) kept that loop busy
 * while costing the upstream nothing, and every other caller's request waited behind its work.
 *
 * Each caller (the user of a session, else the client network: `caller-key.ts`) has an account of the
 * event loop's time it used recently, decaying by half every `halfLifeMillis`. What a request used is
 * measured without touching its code: the loop's busy time (`performance.eventLoopUtilization().active`)
 * is split evenly between the requests admitted and not yet answered, as a processor shared between them
 * would be (a virtual clock advanced by busy time over the number running), so whatever it costs
 * (Apollo's work, the answer's serialization, an upstream answer's parse) counts for the requests that
 * ran meanwhile. A request is charged its caller's mean cost when it is admitted, and the difference when
 * it is answered: requests admitted together, pipelined on many connections or sent in parallel, each take
 * their part of the account before any of them runs.
 *
 * A request whose caller's account is over its share (`share` × the half-life ÷ ln 2: the account of a
 * caller using `share` of the loop steadily) waits, in its caller's own line, until the account has decayed
 * below it, while another caller is active (admitted within the last `activeMillis`); a caller alone is never
 * held back, so a single busy user still gets the whole loop. Callers within their share are admitted at
 * once, so they are served before the waiting ones whatever those send. A caller's line holds
 * `maxWaitingPerCaller` requests, beyond which its requests are refused (`TOO_MANY_REQUESTS`, `cpu_share`,
 * blame `caller`), as is one that would wait longer than `maxWaitMillis`; all lines together hold
 * `maxWaiting`, beyond which the gateway is full (`GATEWAY_BUSY`, `cpu`, blame `gateway`).
 *
 * Callers without a session together (every client network's account) also have one account, the
 * anonymous callers' total, held to `anonymousTotalShare` while a user (a caller with a session) or another
 * network is active: a network costs nothing to come by (many IPv4 addresses, many IPv6 /64s), so each
 * within its own tenth, sixteen networks took the whole loop from a user beside them (the user's p95 8.9 →
 * 132.7 ms; 190 networks at two replicas: 20.7 → 5,361 ms), and 64 networks kept a known device's login
 * (a request without a session too) unanswered for 10 s with no user active. An anonymous request waits
 * while either its own account or the total is over its share. Networks held by the total alone wait
 * together, and as the total finds room the one served longest ago goes first: a network that sends one
 * login now and then is served before the networks flooding, however many. A new request of a network
 * joins that wait rather than pass it. A network alone is never held back, like any caller alone; what
 * all networks may use together, a quarter of the loop, is the price of their being free to come by.
 *
 * Accounts are kept for at most `maxAccounts` callers, the least recently used dropped first: an account
 * unused for a few half-lives holds nearly nothing anyway, and a caller with a line waiting is never
 * dropped (it was used within `maxWaitMillis`).
 */
import { performance } from 'node:perf_hooks';

/** Who a request is charged to. */
export interface CpuCaller {
  /** The account's key: distinct for users and networks. */
  key: string;
  /** Without a session: the smaller share. */
  anonymous: boolean;
}

/** Options of {@link createCpuShare}. */
export interface CpuShareOptions {
  /** How fast an account forgets: it halves every this many milliseconds. */
  halfLifeMillis: number;
  /** A caller admitted within this many milliseconds is active: the others' shares hold while it is. */
  activeMillis: number;
  /** Fraction of the event loop one user may use steadily while others are active. */
  userShare: number;
  /** Fraction one client network without a session may use (the smallest). */
  anonymousShare: number;
  /** Fraction all callers without a session may use together while they are not alone (a user or another network active). */
  anonymousTotalShare: number;
  /** The longest a request may wait for its caller's account to decay; longer: refused at once. */
  maxWaitMillis: number;
  /** Requests of one caller waiting at once; more are refused. */
  maxWaitingPerCaller: number;
  /** Requests waiting at once, all callers together; more: the gateway is full. */
  maxWaiting: number;
  /** Accounts kept at once (least recently used dropped). */
  maxAccounts: number;
  /** Milliseconds of the event loop's busy time so far (tests drive it). Default: the loop's own. */
  busyMillis?: () => number;
  /** The clock, in milliseconds (tests drive it). Default `performance.now`. */
  now?: () => number;
}

/** A request admitted: {@link CpuTicket.done} once it is answered (or its connection closed). */
export interface CpuTicket {
  /** A function property, not a method: it is handed on as a `close` listener. */
  readonly done: () => void;
}

/** A request that waits for its turn: settles with its ticket or a refusal; `cancel` gives its place up. */
export interface CpuWait {
  readonly ticket: Promise<CpuTicket>;
  cancel(): void;
}

/** Why a request was not admitted. */
export class CpuShareRefusal extends Error {
  override readonly name = 'CpuShareRefusal';
  /** `share`: the caller's own line or wait; `full`: every caller's lines together. */
  readonly why: 'share' | 'full';
  /** Seconds after which a retry may be admitted. */
  readonly retryAfterSeconds: number;

  constructor(why: 'share' | 'full', retryAfterSeconds: number) {
    super(
      why === 'share' ? "the caller's CPU share is spent" : 'the gateway holds as many requests as it may',
    );
    this.why = why;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** See the module comment. */
export interface CpuShare {
  /**
   * Admits a request of `caller`: its ticket at once when the caller is within its share (no promise on
   * this path), else a wait. Throws {@link CpuShareRefusal} when its line, or all lines, are full.
   */
  admit(caller: CpuCaller): CpuTicket | CpuWait;
  /** Charges `millis` of work done for `caller` elsewhere (a worker thread's analysis). */
  charge(caller: CpuCaller, millis: number): void;
  /** What `caller` used recently, in milliseconds, decayed to now (for tests and metrics). */
  usedMillis(key: string): number;
  /** Requests admitted and not done, and waiting. */
  counts(): { running: number; waiting: number };
}

interface Waiter {
  grant: (ticket: CpuTicket) => void;
  refuse: (refusal: CpuShareRefusal) => void;
  gone: boolean;
  /** When it began to wait. */
  since: number;
}

interface Account {
  caller: CpuCaller;
  /** Milliseconds used, as of {@link Account.at}. */
  used: number;
  at: number;
  /** Mean cost of this caller's requests (what one is charged at admission). */
  mean: number;
  /** When a request of it was last admitted (a new account: `activeMillis` before it was made). */
  servedAt: number;
  waiting: Waiter[];
  timer: NodeJS.Timeout | undefined;
}

/** A new caller's first requests are charged this much at admission, until its own mean is known. */
const FIRST_ESTIMATE_MILLIS = 0.5;
/** How much of a request's cost moves the caller's mean (an exponential moving average). */
const MEAN_WEIGHT = 0.1;
/**
 * Milliseconds of estimated work (the callers' means) granted from the lines in one turn of the event
 * loop; the rest is granted in a next turn. Granted requests run in the microtasks that follow: granting
 * all the room a late timer found at once ran hundreds of requests in one turn, holding every other
 * caller's I/O (a known device's login beside 64 networks, at a load of 6: event-loop delays of 140 ms,
 * logins of 100-300 ms, and later turns later still, the burst growing with the delay it made).
 */
const GRANT_SLICE_MILLIS = 2;

const defaultBusy = (): number => performance.eventLoopUtilization().active;
const defaultNow = (): number => performance.now();

/** Creates the accounts, all empty. */
export function createCpuShare(options: CpuShareOptions): CpuShare {
  const busyMillis = options.busyMillis ?? defaultBusy;
  const now = options.now ?? defaultNow;
  const { halfLifeMillis } = options;
  const budgetOf = (caller: CpuCaller) =>
    ((caller.anonymous ? options.anonymousShare : options.userShare) * halfLifeMillis) / Math.LN2;
  const anonymousTotalBudget = (options.anonymousTotalShare * halfLifeMillis) / Math.LN2;
  // The anonymous callers' total: charged with every anonymous request, never dropped. Its timer serves the
  // lines it holds (`releaseTotal`).
  const anonymousTotal: Account = {
    caller: { key: '', anonymous: true },
    used: 0,
    at: now(),
    mean: 0,
    servedAt: -Infinity,
    waiting: [],
    timer: undefined,
  };
  // When a caller with a session was last admitted: while it is active, the anonymous total holds.
  let userAt = -Infinity;
  // Anonymous accounts whose line waits on the total alone (their own share has room).
  const totalWaiters = new Set<Account>();
  // Insertion order is recency: an account used moves to the end, the first is dropped when full.
  const accounts = new Map<string, Account>();
  let running = 0;
  let waiting = 0;
  // The virtual clock: busy time divided among the requests running while it passed.
  let virtual = 0;
  let lastBusy = busyMillis();
  // The two callers admitted last, with when: "is another caller active?" in constant time.
  let lastKey = '';
  let lastAt = -Infinity;
  let otherKey = '';
  let otherAt = -Infinity;

  function advance(): void {
    const busy = busyMillis();
    if (running > 0) virtual += (busy - lastBusy) / running;
    lastBusy = busy;
  }

  function decayed(account: Account, at: number): number {
    const elapsed = at - account.at;
    if (elapsed > 0) {
      account.used *= 2 ** (-elapsed / halfLifeMillis);
      account.at = at;
    }
    return account.used;
  }

  function accountOf(caller: CpuCaller): Account {
    let account = accounts.get(caller.key);
    if (account === undefined) {
      const at = now();
      account = {
        caller,
        used: 0,
        at,
        mean: FIRST_ESTIMATE_MILLIS,
        // As if served a second ago: before the networks flooding (served within the last second), after a
        // network served longer ago, so that networks made up by the thousand queue behind a device that
        // logs in now and then, not ahead of it.
        servedAt: at - options.activeMillis,
        waiting: [],
        timer: undefined,
      };
      if (accounts.size >= options.maxAccounts) dropOldest();
    } else {
      accounts.delete(caller.key);
    }
    accounts.set(caller.key, account);
    return account;
  }

  function dropOldest(): void {
    for (const [key, account] of accounts) {
      if (account.waiting.length > 0) continue;
      accounts.delete(key);
      return;
    }
  }

  function noteActive(caller: CpuCaller, at: number): void {
    const { key } = caller;
    if (!caller.anonymous) userAt = at;
    if (key !== lastKey) {
      otherKey = lastKey;
      otherAt = lastAt;
      lastKey = key;
    }
    lastAt = at;
  }

  /** Whether a caller other than `key` was admitted within the last `activeMillis`. */
  function othersActive(key: string, at: number): boolean {
    const since = at - options.activeMillis;
    return (lastKey !== key && lastAt > since) || (otherKey !== key && otherAt > since);
  }

  /** Whether the anonymous total holds `account` back: an anonymous caller's, while it is not alone. */
  function totalHolds(account: Account, at: number): boolean {
    if (!account.caller.anonymous) return false;
    return userAt > at - options.activeMillis || othersActive(account.caller.key, at);
  }

  /** Whether `account`'s own share lets a request of it run now. */
  function ownAllows(account: Account, at: number): boolean {
    return (
      decayed(account, at) + account.mean <= budgetOf(account.caller) || !othersActive(account.caller.key, at)
    );
  }

  function mayRun(account: Account, at: number): boolean {
    const own = ownAllows(account, at);
    if (!own || !totalHolds(account, at)) return own;
    // Any room in the total admits a request, whatever its mean: a heavier one (a login) would otherwise
    // wait for the total to decay further than the flooding networks' cheap ones ever let it.
    return decayed(anonymousTotal, at) < anonymousTotalBudget;
  }

  /** Milliseconds until `used` (of `budget`) leaves room for a request of `mean` (its decay to the budget less one). */
  function decayWait(used: number, budget: number, mean: number): number {
    const room = budget - mean;
    if (room <= 0) return halfLifeMillis;
    return Math.max(1, halfLifeMillis * Math.log2(used / room));
  }

  /** Milliseconds until `account` may run again: its own decay, and the anonymous total's where it holds. */
  function waitOf(account: Account, at: number): number {
    const own = decayWait(decayed(account, at), budgetOf(account.caller), account.mean);
    if (!totalHolds(account, at)) return own;
    return Math.max(own, decayWait(decayed(anonymousTotal, at), anonymousTotalBudget, 0));
  }

  function start(account: Account, at: number): CpuTicket {
    advance();
    running += 1;
    account.used += account.mean;
    account.servedAt = at;
    const { anonymous } = account.caller;
    if (anonymous) anonymousTotal.used = decayed(anonymousTotal, at) + account.mean;
    noteActive(account.caller, at);
    const from = virtual;
    const estimate = account.mean;
    let finished = false;
    return {
      done: () => {
        if (finished) return;
        finished = true;
        advance();
        running -= 1;
        const cost = virtual - from;
        const end = now();
        decayed(account, end);
        account.used = Math.max(0, account.used + cost - estimate);
        if (anonymous) anonymousTotal.used = Math.max(0, decayed(anonymousTotal, end) + cost - estimate);
        account.mean += (cost - account.mean) * MEAN_WEIGHT;
      },
    };
  }

  function schedule(account: Account): void {
    if (account.waiting.length === 0) return;
    const at = now();
    if (totalHolds(account, at) && ownAllows(account, at)) {
      // Held by the total alone: it waits with the others the total holds (`releaseTotal`).
      totalWaiters.add(account);
      scheduleTotal(at);
      return;
    }
    if (account.timer !== undefined) return;
    // Never past the head's deadline: a request that waited `maxWaitMillis` is refused then (`dropStale`).
    const deadline = (account.waiting[0]?.since ?? at) + options.maxWaitMillis - at + 1;
    account.timer = setTimeout(
      () => {
        account.timer = undefined;
        release(account);
      },
      Math.max(1, Math.min(waitOf(account, at), deadline)),
    );
    account.timer.unref();
  }

  function scheduleTotal(at: number): void {
    if (anonymousTotal.timer !== undefined) return;
    anonymousTotal.timer = setTimeout(
      () => {
        anonymousTotal.timer = undefined;
        releaseTotal();
      },
      decayWait(decayed(anonymousTotal, at), anonymousTotalBudget, 0),
    );
    anonymousTotal.timer.unref();
  }

  /**
   * Drops the waiters at the head of `account`'s line that gave their place up, and refuses those that have
   * waited `maxWaitMillis` (the line is oldest first: once its head is younger, all are). The wait an
   * admission foresees is its own account's; behind many networks in the total's wait it may be longer.
   */
  function dropStale(account: Account, at: number): void {
    for (;;) {
      const head = account.waiting[0];
      if (head === undefined) return;
      if (!head.gone && at - head.since <= options.maxWaitMillis) return;
      account.waiting.shift();
      if (head.gone) continue;
      head.gone = true;
      waiting -= 1;
      head.refuse(new CpuShareRefusal('share', 1));
    }
  }

  /**
   * Serves the lines the total held, the network served longest ago first, as long as the total has room;
   * a line its own share now holds goes back to its own timer.
   */
  function releaseTotal(): void {
    let granted = 0;
    for (;;) {
      const at = now();
      let least: Account | undefined;
      for (const account of totalWaiters) {
        dropStale(account, at);
        if (account.waiting.length === 0) totalWaiters.delete(account);
        else if (least === undefined || account.servedAt < least.servedAt) least = account;
      }
      if (least === undefined) return;
      if (!ownAllows(least, at)) {
        totalWaiters.delete(least);
        schedule(least);
        continue;
      }
      if (!mayRun(least, at)) {
        scheduleTotal(at);
        return;
      }
      if (granted >= GRANT_SLICE_MILLIS) {
        nextTurn(anonymousTotal, releaseTotal);
        return;
      }
      const head = least.waiting.shift();
      if (head === undefined) continue;
      waiting -= 1;
      granted += least.mean;
      head.grant(start(least, at));
    }
  }

  function release(account: Account): void {
    let granted = 0;
    for (;;) {
      const at = now();
      dropStale(account, at);
      const head = account.waiting[0];
      if (head === undefined) return;
      if (!mayRun(account, at)) {
        schedule(account);
        return;
      }
      if (granted >= GRANT_SLICE_MILLIS) {
        nextTurn(account, () => {
          release(account);
        });
        return;
      }
      account.waiting.shift();
      waiting -= 1;
      granted += account.mean;
      head.grant(start(account, at));
    }
  }

  /** Runs `go` in a next turn of the loop, after the I/O waiting meanwhile, on `line`'s timer (unless set). */
  function nextTurn(line: Account, go: () => void): void {
    if (line.timer !== undefined) return;
    line.timer = setTimeout(() => {
      line.timer = undefined;
      go();
    }, 0);
    line.timer.unref();
  }

  return {
    admit(caller: CpuCaller): CpuTicket | CpuWait {
      const at = now();
      const account = accountOf(caller);
      // While the total holds networks waiting, a network's new request joins them rather than pass them.
      const passes = !caller.anonymous || totalWaiters.size === 0 || !totalHolds(account, at);
      if (account.waiting.length === 0 && passes && mayRun(account, at)) return start(account, at);
      const wait = waitOf(account, at);
      if (account.waiting.length >= options.maxWaitingPerCaller || wait > options.maxWaitMillis) {
        // A refusal costs the loop too: it is charged as a request, so refusing is never a free loop.
        account.used += account.mean;
        throw new CpuShareRefusal('share', Math.ceil(wait / 1_000));
      }
      if (waiting >= options.maxWaiting) throw new CpuShareRefusal('full', 1);
      let waiter!: Waiter;
      const ticket = new Promise<CpuTicket>((grant, refuse) => {
        waiter = { grant, refuse, gone: false, since: at };
      });
      account.waiting.push(waiter);
      waiting += 1;
      schedule(account);
      return {
        ticket,
        cancel: () => {
          if (waiter.gone) return;
          waiter.gone = true;
          const index = account.waiting.indexOf(waiter);
          if (index < 0) return;
          account.waiting.splice(index, 1);
          waiting -= 1;
          waiter.refuse(new CpuShareRefusal('share', 1));
        },
      };
    },
    charge(caller: CpuCaller, millis: number): void {
      const account = accountOf(caller);
      const at = now();
      decayed(account, at);
      account.used += millis;
      if (caller.anonymous) anonymousTotal.used = decayed(anonymousTotal, at) + millis;
    },
    usedMillis(key: string): number {
      const account = accounts.get(key);
      return account === undefined ? 0 : decayed(account, now());
    },
    counts: () => ({ running, waiting }),
  };
}

/** Whether {@link CpuShare.admit} answered a wait rather than a ticket. */
export function isCpuWait(admitted: CpuTicket | CpuWait): admitted is CpuWait {
  return 'ticket' in admitted;
}
