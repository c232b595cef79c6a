/**
 * Which account a successful JSON login belongs to. The JSON login answers a token and nothing about who it
 * belongs to, and the contract has no "who am I" operation; the form login answers the account's `userId`
 * and accepts a username as well as a mobile number. So the account is, in order:
 *
 * 1. the account an earlier JSON login under the exact name was confirmed as, by step 2
 *    (`account-links.ts`, `jsonLinkedAccountOf`; kept `LOGIN_DEVICE_TTL_SECONDS`, in Redis with
 *    `REDIS_URL`), free. Never the link a form login made: the form login accepts mobile numbers too, so a
 *    form login with another account's mobile number that equals this username linked that name to the
 *    other account, which the JSON login of this username must not become;
 * 2. else the `userId` the form login answers for the same name and password, asked once right after the
 *    JSON login accepted them (the password is known right: this is no guess, and the caller's own login
 *    turn covers it). The name's JSON link is then made, so the next JSON logins under it ask nothing;
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
  links: Pick<AccountLinks, 'jsonLinkedAccountOf' | 'linkJson'>,
  name: string,
  askForm: () => Promise<string | null>,
  onLookupFailed?: (error: unknown) => void,
  failedLookups?: FailedLookups,
): Promise<JsonLoginAccount> {
  const linked = await links.jsonLinkedAccountOf(name);
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
  if (userId !== null) await links.linkJson(name, userId);
  return { account: accountOf({ userId, username: name }), userId };
}
