/**
 * Which account a successful JSON login belongs to. The JSON login answers a token and nothing about who it
 * belongs to, and the contract has no "who am I" operation; the form login answers the account's `userId`
 * and accepts a username as well as a mobile number. So the account is, in order:
 *
 * 1. the account the exact name was linked to by an earlier successful login under that name
 *    (`account-links.ts`; kept `LOGIN_DEVICE_TTL_SECONDS`, in Redis with `REDIS_URL`), free;
 * 2. else the `userId` the form login answers for the same name and password, asked once right after the
 *    JSON login accepted them (the password is known right: this is no guess, and the caller's own login
 *    turn covers it). The name is then linked, so the next JSON logins under it ask nothing;
 * 3. else (the form login refused or failed) the name itself: a second name of the account stays a second
 *    user until the lookup succeeds once. The login never fails for it. A name whose lookup failed is not
 *    asked again for a while (`failedLookups`): where the form login is missing or refuses what the JSON
 *    login accepts, every JSON login would otherwise cost a second upstream call and a warning.
 *
 * Whatever the caller types, the account comes from what the upstream answered to a correct password
 * under that very name: nobody can take another account's identity by typing its name.
 */
import { type AccountLinks } from './account-links.ts';
import { accountOf } from './user-key.ts';

/** Names whose lookup failed recently (a bounded cache with a time to live, `login-protection.ts`). */
export interface FailedLookups {
  has(name: string): boolean;
  set(name: string, value: true): unknown;
}

/** The account of a JSON login, and the `userId` learnt for it (`null` when it came from a link or the name). */
export interface JsonLoginAccount {
  account: string;
  userId: string | null;
}

/**
 * The account `name` (just accepted by the JSON login) belongs to. `askForm` runs the form login with the
 * same credentials and answers its `userId`; its failures are swallowed (told to `onLookupFailed`).
 */
export async function jsonLoginAccount(
  links: Pick<AccountLinks, 'linkedAccountOf'>,
  name: string,
  askForm: () => Promise<string | null>,
  onLookupFailed?: (error: unknown) => void,
  failedLookups?: FailedLookups,
): Promise<JsonLoginAccount> {
  const linked = await links.linkedAccountOf(name);
  if (linked !== undefined) return { account: linked, userId: null };
  if (failedLookups?.has(name) === true)
    return { account: accountOf({ userId: null, username: name }), userId: null };
  let userId: string | null = null;
  try {
    userId = await askForm();
  } catch (error) {
    failedLookups?.set(name, true);
    onLookupFailed?.(error);
  }
  if (userId === '') userId = null;
  return { account: accountOf({ userId, username: name }), userId };
}
