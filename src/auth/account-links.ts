/**
 * Which login names belong to one account, so that a username and its registered mobile number share one
 * set of failure counters (otherwise each name is a fresh guess budget).
 *
 * The linking signal is the upstream's `userId`, answered only by a *successful* form login (`method: FORM`,
 * which accepts a username or a mobile number and echoes the name typed). Each name that once logged in that
 * way is linked to the account `userId`; two names linked to the same `userId` share counters from then on.
 * The JSON login answers no `userId` and so links nothing (it accepts usernames only). Only a correct password
 * creates a link, so an attacker cannot merge or split someone else's counters.
 *
 * Each link is kept twice: under the name as the failure counters fold it (case and spaces ignored: merging
 * two names there only makes guessing harder), and under the exact name, which is what the session's
 * identity reads (`linkedAccountOf`, `src/auth/user-key.ts`): there, folding `Bob` into `bob` could make two
 * accounts of a case-sensitive upstream one user, and let one eat the other's shares.
 *
 * Links are kept in this process and, with `REDIS_URL`, in Redis (every replica sees them). Names and ids are
 * stored hashed only.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { RedisGuard } from './redis/redis-guard.ts';

/** Options of {@link createAccountLinks}. */
export interface AccountLinksOptions {
  /** Shared store (`REDIS_URL`), behind its guard; links stay in this process without it. */
  redis?: RedisGuard | undefined;
  /** How long a link is kept after the last login that confirmed it. */
  ttlSeconds: number;
  /** Prefix of the store's keys. Default `login_link`. */
  keyPrefix?: string;
  /** Told when Redis fails (this process's links still answer). */
  onStoreError?: (error: unknown) => void;
}

/** See {@link createAccountLinks}. */
export interface AccountLinks {
  /** The counter key of the account `name` belongs to: its linked account, or the name itself. Never throws. */
  accountOf(name: string): Promise<string>;
  /**
   * The account the exact name `name` was last linked to (a successful login under that very name that the
   * upstream answered a `userId` to), or `undefined`. Never throws.
   */
  linkedAccountOf(name: string): Promise<string | undefined>;
  /** Records that `name` logged in successfully as the upstream user `userId`. Never throws. */
  link(name: string, userId: string): Promise<void>;
  /**
   * The account a JSON login under the exact name `name` was last confirmed as (`linkJson`), or `undefined`.
   * Apart from {@link linkedAccountOf}: a form login accepts a mobile number too, so the form's link of a
   * name may be another account's mobile number that equals this user's username. Never throws.
   */
  jsonLinkedAccountOf(name: string): Promise<string | undefined>;
  /** Records that a JSON login under `name` was confirmed (by the form login's answer) as `userId`. Never throws. */
  linkJson(name: string, userId: string): Promise<void>;
  /**
   * The failure counters' account of a JSON login under `name`: what a JSON login under that exact name was
   * confirmed as, else what a JSON login under any name folding to it (case, spaces) was last confirmed as,
   * else the folded name. Otherwise `ADMIN` would guess at `admin`'s password (on an upstream that ignores
   * case) with a budget of its own. Counting only: never a session's identity. Never throws.
   */
  jsonCountedAccountOf(name: string): Promise<string>;
}

const hash = (value: string): string => createHash('sha256').update(value).digest('base64url').slice(0, 22);

/** Usernames differing in case and spaces only are one name (typing mistakes); stored hashed. */
export function nameKey(name: string): string {
  return `n.${hash(`name\0${name.trim().toLowerCase()}`)}`;
}

/** The name exactly as the upstream accepted it (the key the session's identity reads: see the module comment). */
export function exactNameKey(name: string): string {
  return `x.${hash(`exact\0${name}`)}`;
}

/** The exact name of a JSON login (usernames only): its own links (see {@link AccountLinks.jsonLinkedAccountOf}). */
export function jsonNameKey(name: string): string {
  return `j.${hash(`json\0${name}`)}`;
}

/** A JSON login's name as the failure counters fold it (see {@link AccountLinks.jsonCountedAccountOf}). */
function jsonFoldedKey(name: string): string {
  return `jf.${hash(`json-folded\0${name.trim().toLowerCase()}`)}`;
}

/** The key of the account an upstream user id names: the login counters' and the session identity's. */
export function accountKey(userId: string): string {
  return `a.${hash(`user\0${userId}`)}`;
}

/** Creates the links. */
export function createAccountLinks(options: AccountLinksOptions): AccountLinks {
  const prefix = options.keyPrefix ?? 'login_link';
  const { redis } = options;
  const ttlMillis = options.ttlSeconds * 1000;
  const local = new LRUCache<string, string>({ max: 100_000, ttl: ttlMillis });

  async function linkOf(key: string): Promise<string | undefined> {
    const known = local.get(key);
    if (known !== undefined || redis === undefined) return known;
    try {
      const stored = await redis.run((client) => client.get(`${prefix}:${key}`), 'read');
      if (stored === null) return undefined;
      local.set(key, stored);
      return stored;
    } catch (error) {
      options.onStoreError?.(error);
      return undefined;
    }
  }

  async function store(keys: readonly string[], account: string): Promise<void> {
    for (const key of keys) local.set(key, account);
    if (redis === undefined) return;
    try {
      await redis.run(
        (client) => Promise.all(keys.map((key) => client.set(`${prefix}:${key}`, account, 'PX', ttlMillis))),
        'write',
      );
    } catch (error) {
      options.onStoreError?.(error);
    }
  }

  return {
    async accountOf(name) {
      const key = nameKey(name);
      return (await linkOf(key)) ?? key;
    },

    linkedAccountOf: (name) => linkOf(exactNameKey(name)),

    link: (name, userId) => store([nameKey(name), exactNameKey(name)], accountKey(userId)),

    jsonLinkedAccountOf: (name) => linkOf(jsonNameKey(name)),

    linkJson: (name, userId) => store([jsonNameKey(name), jsonFoldedKey(name)], accountKey(userId)),

    async jsonCountedAccountOf(name) {
      return (await linkOf(jsonNameKey(name))) ?? (await linkOf(jsonFoldedKey(name))) ?? nameKey(name);
    },
  };
}
