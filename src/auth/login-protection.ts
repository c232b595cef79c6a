/**
 * The `login` mutation's guard: refuses a blocked username/IP before the upstream is asked, counts refused
 * logins, and answers every failure (refused or blocked) with the same generic `UNAUTHENTICATED`, plus
 * `retryAfter` (seconds) when blocked.
 *
 * Timing: a failure is never answered before `minFailureMillis` have passed since the attempt began, so the
 * time a refusal takes does not tell a wrong password from an unknown user, or a block from a guess (as
 * long as the upstream answers within the floor).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { GraphQLError } from 'graphql';
import { ErrorCode, unauthenticated } from '../resolvers/errors.ts';
import type { LoginLimiter } from './login-limiter.ts';

/** Options of {@link createLoginProtection}. */
export interface LoginProtectionOptions {
  limiter: LoginLimiter;
  /** `LOGIN_FAILURE_MIN_MS`: the least time a failed login takes to answer. Default 400. */
  minFailureMillis: number;
  /** Told when the limiter's store fails (the login then goes on unguarded rather than locking everyone out). */
  onStoreError?: (error: unknown) => void;
}

/** See {@link createLoginProtection}. */
export interface LoginProtection {
  /** Runs `login` for `username` from `clientIp` unless blocked; a credentials failure is counted. */
  run<T>(username: string, clientIp: string, login: () => Promise<T>): Promise<T>;
}

/** Whether `error` is a refused login (the resolver turns upstream refusals into `UNAUTHENTICATED`). */
function isRefusal(error: unknown): boolean {
  return error instanceof GraphQLError && error.extensions.code === ErrorCode.UNAUTHENTICATED;
}

/** Creates the guard. */
export function createLoginProtection(options: LoginProtectionOptions): LoginProtection {
  const { limiter } = options;

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
    async run<T>(username: string, clientIp: string, login: () => Promise<T>): Promise<T> {
      const started = performance.now();
      const floor = () => sleep(Math.max(0, options.minFailureMillis - (performance.now() - started)));
      const waitSeconds = await safely(() => limiter.retryAfterSeconds(username, clientIp), 0);
      if (waitSeconds > 0) {
        await floor();
        throw unauthenticated('credentials', { retryAfter: waitSeconds });
      }
      let result: T;
      try {
        result = await login();
      } catch (error) {
        if (!isRefusal(error)) throw error;
        const blockedFor = await safely(() => limiter.recordFailure(username, clientIp), 0);
        await floor();
        throw blockedFor > 0 ? unauthenticated('credentials', { retryAfter: blockedFor }) : error;
      }
      await safely(() => limiter.recordSuccess(username, clientIp), undefined);
      return result;
    },
  };
}
