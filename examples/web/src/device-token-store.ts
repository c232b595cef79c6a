/**
 * Where the page keeps the `deviceToken` each successful sign-in returns, one per account: in
 * `localStorage`, because it must outlive the tab to be worth anything. Sent back with the next sign-in of
 * the same account, it tells the gateway this browser signed in before, so failures an attacker makes from
 * elsewhere never lock it out (the OWASP "device cookie"). It opens no session by itself.
 */

/** Reads and writes the device token of an account. */
export interface DeviceTokenStore {
  get(username: string): string | undefined;
  set(username: string, deviceToken: string): void;
}

const KEY = 'gateway-example.devices';

/** One entry per account however its name was typed: trimmed, case-insensitive. */
const accountKey = (username: string): string => username.trim().toLowerCase();

function read(storage: Storage): Record<string, string> {
  try {
    const value: unknown = JSON.parse(storage.getItem(KEY) ?? '{}');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  } catch {
    return {};
  }
}

/** A store over `storage` (the page's `localStorage`). */
export function createDeviceTokenStore(storage: Storage): DeviceTokenStore {
  return {
    get(username) {
      return read(storage)[accountKey(username)];
    },
    set(username, deviceToken) {
      storage.setItem(KEY, JSON.stringify({ ...read(storage), [accountKey(username)]: deviceToken }));
    },
  };
}
