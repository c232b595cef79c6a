import { randomBytes } from 'node:crypto';
import type { EmulatorUser } from './demo-users.ts';

/** What a presented token turned out to be. */
export type TokenCheck = { ok: true; user: EmulatorUser } | { ok: false; reason: 'unknown' | 'expired' };

/** Issues upstream tokens at login and recognises them on later calls. */
export interface TokenRegistry {
  /** A fresh random token for `user`; earlier tokens of the same user stay valid until they expire. */
  issue(user: EmulatorUser): string;
  /** Who holds `token`, if it is live. */
  check(token: string): TokenCheck;
}

/** Options of {@link createTokenRegistry}. */
export interface TokenRegistryOptions {
  /** Lifetime of an issued token, in seconds. */
  ttlSeconds: number;
  /** Clock in milliseconds since the epoch. */
  now: () => number;
}

/** Expired tokens are swept after this many logins, so a login benchmark cannot grow memory forever. */
const SWEEP_EVERY_ISSUES = 1024;

/** Builds an in-memory token registry (tokens do not survive a restart, like sessions of a web app). */
export function createTokenRegistry(options: TokenRegistryOptions): TokenRegistry {
  const live = new Map<string, { user: EmulatorUser; expiresAtMillis: number }>();
  let issuesSinceSweep = 0;

  const sweep = (nowMillis: number): void => {
    for (const [token, entry] of live) {
      if (entry.expiresAtMillis <= nowMillis) live.delete(token);
    }
  };

  return {
    issue(user) {
      const nowMillis = options.now();
      if (++issuesSinceSweep >= SWEEP_EVERY_ISSUES) {
        issuesSinceSweep = 0;
        sweep(nowMillis);
      }
      const token = randomBytes(24).toString('base64url');
      live.set(token, { user, expiresAtMillis: nowMillis + options.ttlSeconds * 1000 });
      return token;
    },
    check(token) {
      const entry = live.get(token);
      if (entry === undefined) return { ok: false, reason: 'unknown' };
      if (entry.expiresAtMillis <= options.now()) {
        live.delete(token);
        return { ok: false, reason: 'expired' };
      }
      return { ok: true, user: entry.user };
    },
  };
}
