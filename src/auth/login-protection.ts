/**
 * The `login` mutation's guard: finds the account the name belongs to and whether the client is a known
 * device of it, takes a turn of logins' share of the upstream (`login-share.ts`; beyond it
 * `TOO_MANY_REQUESTS`), reserves the attempt's failure budgets before the upstream is asked (refusing a
 * blocked or full one), settles the reservation by the answer, links the name to the upstream user after
 * a successful login that learnt its `userId`, and hands out the next device token. The login
 * itself says whether the upstream refused the credentials ({@link LoginOutcome}): the guard never reads
 * error codes. Every failure (refused or blocked) is the same generic `UNAUTHENTICATED`, plus `retryAfter`
 * (seconds) when blocked.
 *
 * Timing: a failure is never answered before `minFailureMillis` have passed since the attempt began, so the
 * time a refusal takes does not tell a wrong password from an unknown user, or a block from a guess (as
 * long as the upstream answers within the floor).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import { loginShareSpent, unauthenticated } from '../errors/graphql-errors.ts';
import { exactNameKey, nameKey, type AccountLinks } from './account-links.ts';
import { isUpstreamError } from '../errors/upstream-error.ts';
import { newDeviceId, type DeviceTokens } from './device-token.ts';
import { jsonLoginAccount, type JsonLoginAccount } from './json-login-account.ts';
import type { LoginAttempt, LoginLimiter } from './login-limiter.ts';
import type { LoginShare } from './login-share.ts';

/** Options of {@link createLoginProtection}. */
export interface LoginProtectionOptions {
  limiter: LoginLimiter;
  /** Logins' share of the upstream per address and account (rate and concurrency). */
  share: LoginShare;
  links: AccountLinks;
  devices: DeviceTokens;
  /** `LOGIN_FAILURE_MIN_MS`: the least time a failed login takes to answer. */
  minFailureMillis: number;
  /** Told of every failed login (refused, blocked or past its share): the log sums them up. */
  onFailedLogin?: (failure: FailedLogin) => void;
  /** Told when the limiter's store fails (the login then goes on unguarded rather than locking everyone out). */
  onStoreError?: (error: unknown) => void;
  /** Told when a JSON login's account could not be learnt from the form login (`json-login-account.ts`). */
  onAccountLookupFailed?: (error: unknown) => void;
}

/**
 * Why a login failed: logins' share of the upstream spent (`login_share`), refused by a block in force
 * (`blocked`), or the upstream rejected the name or password (`rejected`).
 */
export type FailedLoginReason = 'login_share' | 'blocked' | 'rejected';

/** A failed login, as {@link LoginProtectionOptions.onFailedLogin} hears of it (no name, no password). */
export interface FailedLogin {
  clientIp: string;
  reason: FailedLoginReason;
  /** The `retryAfter` answered (a block in force, or the one this failure started); 0 for none. */
  retryAfterSeconds: number;
}

/** One login as the guard sees it. */
export interface GuardedLogin {
  /** The name typed (username or mobile number). */
  username: string;
  clientIp: string;
  /** The `deviceToken` argument: untrusted until verified. */
  deviceToken: unknown;
  /**
   * Which login: a JSON login takes usernames only, so its name's account is only what earlier JSON logins
   * under that name were confirmed as (`json-login-account.ts`), never a form login's link. Default `FORM`.
   */
  method?: 'JSON' | 'FORM';
}

/** What the guard tells the login it runs. */
export interface LoginContext {
  /** The client sent a valid device token of this account: its upstream call takes known devices' share. */
  knownDevice: boolean;
}

/**
 * What one login attempt came to: the upstream accepted the credentials (with the identity it answered), or
 * refused them, which counts as a failure. Anything else (an outage) is thrown, and counts as nothing.
 */
export type LoginOutcome<T> = { accepted: true; result: T } | { accepted: false };

/** See {@link createLoginProtection}. */
export interface LoginProtection {
  /**
   * Runs `login` unless blocked; a refusal is counted and answered `UNAUTHENTICATED`. An acceptance answers
   * the login's result and the client's next device token.
   */
  run<T extends { accountUserId: string | null; account: string }>(
    attempt: GuardedLogin,
    login: (context: LoginContext) => Promise<LoginOutcome<T>>,
  ): Promise<{ result: T; deviceToken: string }>;
  /**
   * The account of a JSON login just accepted under `name` (see `json-login-account.ts`); `askForm` runs the
   * form login with the same credentials and answers its `userId`. Called inside {@link LoginProtection.run}'s
   * login, so the lookup shares the attempt's turn of the login share. Never throws.
   */
  jsonLoginAccount(name: string, askForm: () => Promise<string | null>): Promise<JsonLoginAccount>;
  /**
   * The account a genuine, unexpired device token was issued for (after a login the upstream accepted), or
   * `undefined` for anything else: whose share of the gateway's work a login from a known device takes.
   * Never throws.
   */
  deviceAccountOf(token: unknown): Promise<string | undefined>;
}

/**
 * Refusals of the gateway's own shares, before or instead of the upstream call: the logins' share of the
 * bulkhead, their share of the answer budget, the request's call budget. Not the totals (`overloaded`):
 * a gateway full of everyone's calls is an outage to this login, and counting it would let anyone who
 * fills the gateway spend other people's budgets.
 */
const GATEWAY_REFUSALS: ReadonlySet<string> = new Set(['session_overloaded', 'answer_share', 'call_budget']);

function isGatewayRefusal(error: unknown): boolean {
  return isUpstreamError(error) && GATEWAY_REFUSALS.has(error.kind);
}

/** Names whose account lookup failed, remembered so that the next JSON logins under them ask nothing. */
const FAILED_LOOKUPS_MAX = 10_000;
/** How long a failed lookup is not retried: a form login that comes back is used again after this. */
const FAILED_LOOKUP_TTL_MILLIS = 10 * 60_000;

/** Creates the guard. */
export function createLoginProtection(options: LoginProtectionOptions): LoginProtection {
  const { limiter, links, devices } = options;
  // Bounded: a flood of made-up names that the JSON login accepts cannot grow it past its size.
  const failedLookups = new LRUCache<string, true>({
    max: FAILED_LOOKUPS_MAX,
    ttl: FAILED_LOOKUP_TTL_MILLIS,
  });

  /** Store failures must not turn into a login outage: the store's own insurance covers most of them. */
  async function safely<T>(work: () => Promise<T>, fallback: T): Promise<T> {
    try {
      return await work();
    } catch (error) {
      options.onStoreError?.(error);
      return fallback;
    }
  }

  return {
    async run(guarded, login) {
      const started = performance.now();
      const floor = () => sleep(Math.max(0, options.minFailureMillis - (performance.now() - started)));
      const json = guarded.method === 'JSON';
      const exactName = exactNameKey(guarded.username);
      // The counters' account: a JSON login's name counts as what JSON logins under it were confirmed as.
      const account = json
        ? await links.jsonCountedAccountOf(guarded.username)
        : await links.accountOf(guarded.username);
      const confirmed = json
        ? await links.jsonLinkedAccountOf(guarded.username)
        : await links.linkedAccountOf(guarded.username);
      const device = await devices.verify(guarded.deviceToken);
      // A device token proves a past login to the account the upstream answered for it: under this exact
      // name, or under another name the upstream confirmed as that same account. Never by a name that only
      // folds to this one (`Ops` and `ops` may be two accounts of a case-sensitive upstream).
      const knownDevice =
        device !== undefined &&
        (device.name === exactName || (confirmed !== undefined && device.account === confirmed));
      const attempt: LoginAttempt = {
        account,
        // Every guess at a name counts for the name too, whichever method's link counts it for an account.
        name: nameKey(guarded.username),
        clientIp: guarded.clientIp,
        deviceId: knownDevice ? device.deviceId : undefined,
      };
      // Logins' own share of the upstream, right or wrong: refused before any budget is touched. A known
      // device takes its account's known devices' share, which no other client spends.
      const turn = options.share.take(guarded.clientIp, account, knownDevice);
      if ('retryAfterSeconds' in turn) {
        options.onFailedLogin?.({
          clientIp: guarded.clientIp,
          reason: 'login_share',
          retryAfterSeconds: turn.retryAfterSeconds,
        });
        throw loginShareSpent(turn.retryAfterSeconds);
      }
      // The attempt's budgets are taken before the upstream is asked: concurrent or pipelined guesses find
      // them taken by the ones in flight, not only by the failures already answered.
      const reservation = await safely(() => limiter.reserve(attempt), undefined);
      if (reservation !== undefined && reservation.refusedForSeconds > 0) {
        turn.release();
        options.onFailedLogin?.({
          clientIp: guarded.clientIp,
          reason: 'blocked',
          retryAfterSeconds: reservation.refusedForSeconds,
        });
        await floor();
        throw unauthenticated('credentials', { retryAfter: reservation.refusedForSeconds });
      }
      let outcome: Awaited<ReturnType<typeof login>>;
      try {
        outcome = await login({ knownDevice });
      } catch (error) {
        if (!knownDevice && isGatewayRefusal(error)) {
          // Refused by the gateway's own shares (a flood of logins fills them): kept as a failure, so a
          // flood that the shares refuse never gives its guess budget back. Never a known device's.
          await safely(() => reservation?.failed() ?? Promise.resolve(0), 0);
        } else {
          // The upstream judged nothing (an outage, a timeout): no guess was made, so none is counted.
          await safely(() => reservation?.released() ?? Promise.resolve(), undefined);
        }
        throw error;
      } finally {
        turn.release();
      }
      if (!outcome.accepted) {
        const blockedFor = await safely(() => reservation?.failed() ?? Promise.resolve(0), 0);
        options.onFailedLogin?.({
          clientIp: guarded.clientIp,
          reason: 'rejected',
          retryAfterSeconds: blockedFor,
        });
        await floor();
        throw unauthenticated('credentials', blockedFor > 0 ? { retryAfter: blockedFor } : {});
      }
      const { result } = outcome;
      await safely(() => reservation?.succeeded() ?? Promise.resolve(), undefined);
      // A form login's name is linked to the account the upstream answered (a JSON login's lookup made its own).
      if (!json && result.accountUserId !== null && result.accountUserId !== '') {
        await links.link(guarded.username, result.accountUserId);
      }
      const linkedAccount = json
        ? await links.jsonCountedAccountOf(guarded.username)
        : await links.accountOf(guarded.username);
      // A name just linked: its logins so far count for the account too (no second allowance per name).
      if (linkedAccount !== account) options.share.carryOver(account, linkedAccount);
      // The token names the account the upstream answered for this login, and the exact name typed.
      const deviceToken = await devices.issue({
        deviceId: knownDevice ? device.deviceId : newDeviceId(),
        account: result.account,
        name: exactName,
      });
      return { result, deviceToken };
    },

    jsonLoginAccount: (name, askForm) =>
      jsonLoginAccount(links, name, askForm, options.onAccountLookupFailed, failedLookups),

    deviceAccountOf: async (token) => (await devices.verify(token))?.account,
  };
}
