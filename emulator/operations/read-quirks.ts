/**
 * Read-side dialects of upstreams written apart from this project, from the interface document alone, each
 * where the document leaves room (docs/design.md, "The emulator's read quirks"): the gateway must answer right
 * or with a named error against every one of them, alone or together. All off by default.
 */
import type { Reply } from '../http/reply.ts';

/** The read quirks an emulator can speak (`EmulatorOptions.readQuirks`). */
export interface ReadQuirks {
  /** `matches` runs as `Pattern.compile("^" + value + "$").matcher(text).find()`: an alternation escapes the anchors. */
  wrapAnchors?: boolean;
  /** Only the last criterion on each field is applied (a filter built as a map from field to condition). */
  lastCriterionPerField?: boolean;
  /**
   * `matches` sees string fields only, as MongoDB's `$regex` does: a number, boolean, date (`{"$date": …}`)
   * or reference held as `{"$oid": …}` never matches, whatever the pattern.
   */
  matchesStringsOnly?: boolean;
  /**
   * `organizationCode` is ignored on getObject and getAll: every organization of the caller's application is
   * served, each record carrying its own `organizationCode` field (a MongoDB entity's tenant field).
   */
  ignoreOrganization?: boolean;
  /** getObject answers `data` as the one record (or `null`), not an array. */
  getObjectSingle?: boolean;
  /**
   * How a read with a dead token or session is answered: `error` (`status: error`, the default), `redirect`
   * (302 to `/app/login.jsp`), `html` (the login page, 200), `text` (`text/plain`, 200).
   */
  deadSession?: 'error' | 'redirect' | 'html' | 'text';
  /**
   * A record a write changes moves to the end of the natural order that getAll pages through (MongoDB's
   * MMAPv1 moves a document that grows; the interface has no sort to ask for): offsets shift under a reader
   * paging while another writes.
   */
  naturalOrderMoves?: boolean;
  /** Usernames whose logins answer "User account is locked" (right password or not). */
  lockedUsers?: readonly string[];
}

/** The one message a locked account's login answers. */
export const ACCOUNT_LOCKED = 'User account is locked';

const LOGIN_PAGE =
  '<!DOCTYPE html><html><head><title>Log in</title></head><body><form method="post" action="/app/login.jsp">' +
  '<input name="username"><input type="password" name="password"><button>Log in</button></form></body></html>';

/** The reply of a read whose token or session is dead, in the `form` a servlet answers it. */
export function deadSessionReply(form: 'redirect' | 'html' | 'text'): Reply {
  if (form === 'redirect') {
    return {
      statusCode: 302,
      json: '',
      raw: { contentType: 'text/html', body: '', location: '/app/login.jsp' },
    };
  }
  if (form === 'html')
    return {
      statusCode: 200,
      json: '',
      raw: { contentType: 'text/html;charset=ISO-8859-1', body: LOGIN_PAGE },
    };
  return {
    statusCode: 200,
    json: '',
    raw: { contentType: 'text/plain', body: 'Your session has expired. Please log in again.' },
  };
}

/** A record's JSON text with its organization as a field of its own, first (`{"organizationCode":…,"_id":…}`). */
export function withOrganizationField(recordJson: string, organizationCode: string): string {
  return `{"organizationCode":${JSON.stringify(organizationCode)},${recordJson.slice(1)}`;
}

/** `criteria` with only the last of each field kept (in the order of their last occurrence). */
export function lastPerField<T extends { path: readonly string[] }>(criteria: readonly T[]): T[] {
  const byField = new Map<string, T>();
  for (const criterion of criteria) {
    const key = criterion.path.join('.');
    byField.delete(key);
    byField.set(key, criterion);
  }
  return [...byField.values()];
}
