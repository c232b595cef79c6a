import { createHash, timingSafeEqual } from 'node:crypto';
import type { EmulatorUser } from './demo-users.ts';

/** Looks users up by the names the upstream accepts and checks their passwords. */
export interface UserDirectory {
  /** The user whose username equals `name`. */
  byUsername(name: string): EmulatorUser | undefined;
  /** The user whose username or registered mobile number equals `nameOrMobile`. */
  byUsernameOrMobile(nameOrMobile: string): EmulatorUser | undefined;
  /** Whether `password` is the user's, compared in constant time. */
  checkPassword(user: EmulatorUser, password: string): boolean;
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Builds a directory over a fixed list of users. */
export function createUserDirectory(users: readonly EmulatorUser[]): UserDirectory {
  const byName = new Map<string, EmulatorUser>();
  const byNameOrMobile = new Map<string, EmulatorUser>();
  // Hash once: comparing digests keeps the comparison constant-time whatever the lengths.
  const passwordDigests = new Map<EmulatorUser, Buffer>();
  for (const user of users) {
    byName.set(user.username, user);
    byNameOrMobile.set(user.username, user);
    byNameOrMobile.set(user.mobile, user);
    passwordDigests.set(user, digest(user.password));
  }
  return {
    byUsername: (name) => byName.get(name),
    byUsernameOrMobile: (nameOrMobile) => byNameOrMobile.get(nameOrMobile),
    checkPassword(user, password) {
      const expected = passwordDigests.get(user);
      return expected !== undefined && timingSafeEqual(expected, digest(password));
    },
  };
}
