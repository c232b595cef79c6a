/**
 * Who a session is, for every share and vote: the one place the canonical user key is computed. A second
 * login name of one account (its username by the JSON login, its mobile number by the form login) must never
 * be a second user: a second breaker vote, a second answer-byte share, a second bulkhead share, a second
 * pattern-guard queue, a second set of operation names in the metrics, a second revocation quota.
 *
 * The key is the application and the account: the upstream's `userId` (hashed) wherever the upstream vouched
 * for one, else the exact name the upstream accepted. Never a name the caller typed on its own: the form login
 * answers the `userId`; the JSON login answers none, so the login learns it (`json-login-account.ts`) and
 * seals the account into the session (claim `k`), where it stays for the session's life (the revocation
 * ledger's quota depends on the key never changing under a live token).
 */
import { accountKey, exactNameKey } from './account-links.ts';

/** What the key is computed from: a session's claims (`account` absent in sessions sealed before it existed). */
export interface AccountHolder {
  applicationCode: string;
  /** The name the upstream accepted (the form login's echo, or the JSON login's username). */
  username: string;
  /** The upstream's user id, when the login answered one. */
  userId?: string | null | undefined;
  /** The account sealed at login ({@link accountOf}). */
  account?: string | undefined;
}

/**
 * The account of a login: the upstream's user id where it answered one, else the exact name it accepted
 * (hashed; no case folding: a case-sensitive upstream may hold `Bob` and `bob` as two accounts).
 */
export function accountOf(identity: { userId?: string | null | undefined; username: string }): string {
  const { userId } = identity;
  if (userId !== undefined && userId !== null && userId !== '') return accountKey(userId);
  return exactNameKey(identity.username);
}

/** The canonical key of the session's user: the same for every login name of one account. */
export function userKeyOf(holder: AccountHolder): string {
  return `${holder.applicationCode}\u0000${holder.account ?? accountOf(holder)}`;
}
