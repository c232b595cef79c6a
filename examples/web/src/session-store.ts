/**
 * Where the page keeps its session: `sessionStorage` (this tab only, gone when the tab closes), never
 * `localStorage`, so a token does not outlive the tab or leak to other tabs.
 */

/** The signed-in session. */
export interface StoredSession {
  token: string;
  username: string;
  /** ISO 8601; the session is dropped once past. */
  expiresAt: string;
}

/** Reads, writes and forgets the session. */
export interface SessionStore {
  get(): StoredSession | undefined;
  set(session: StoredSession): void;
  clear(): void;
}

const KEY = 'gateway-example.session';

function isStoredSession(value: unknown): value is StoredSession {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.token === 'string' && typeof v.username === 'string' && typeof v.expiresAt === 'string';
}

/** A store over `storage` (the tab's `sessionStorage`); `now` is injectable for tests. */
export function createSessionStore(storage: Storage, now: () => number = Date.now): SessionStore {
  return {
    get() {
      let value: unknown;
      try {
        value = JSON.parse(storage.getItem(KEY) ?? 'null');
      } catch {
        value = null;
      }
      if (!isStoredSession(value) || Date.parse(value.expiresAt) <= now()) {
        storage.removeItem(KEY);
        return undefined;
      }
      return value;
    },
    set(session) {
      storage.setItem(KEY, JSON.stringify(session));
    },
    clear() {
      storage.removeItem(KEY);
    },
  };
}
