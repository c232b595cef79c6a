/**
 * The one key of a cached read, and whose it is. A key is a hash of everything the answer depends on: the
 * kind of read, the object type, the versions that writes bump (`cache-versions.ts`), the owner the policy's
 * scope names, and the read's own arguments. Hashed, so no account, organization or argument text is held in
 * memory twice, shows in a heap dump's key list, or reaches Redis; tokens never enter it at all: the
 * owner is the account, not the credential.
 */
import { createHash } from 'node:crypto';
import type { CacheScope } from '../config/cache-settings.ts';

/** Bumped when the shape of cached values changes, so no replica reads another build's entries. */
const KEY_FORMAT = 'gateway-cache-1';

/** Who a session is, as far as the cache is concerned. */
export interface CacheCaller {
  applicationCode: string;
  /** The session's organization; the cache serves no session without one. */
  organizationCode: string;
  /** The account (`userKeyOf`: application and the upstream's account, hashed): never a typed name. */
  userKey: string;
}

/** The kinds of read the cache holds. */
export type CachedReadKind = 'object' | 'find' | 'page' | 'metadata';

/** Everything one cached read's key is made of. */
export interface CacheKeyParts {
  kind: CachedReadKind;
  objectName: string;
  scope: CacheScope;
  caller: CacheCaller;
  /** The type's versions when the read started (`CacheVersions.current`). */
  version: string;
  /** The read's arguments (an id; criteria, page size and index; a metadata category), JSON-able. */
  args: unknown;
}

/**
 * Whose entries these are: `PUBLIC` the organization and application, `PRIVATE` the account within them too.
 * A `PUBLIC` owner never equals a `PRIVATE` one, so the two scopes of one type never share an entry.
 */
export function cacheOwner(scope: CacheScope, caller: CacheCaller): readonly string[] {
  const tenant = [caller.applicationCode, caller.organizationCode];
  return scope === 'PUBLIC' ? ['public', ...tenant] : ['private', ...tenant, caller.userKey];
}

/** The key of one cached read (see the module comment): a fixed-length hex digest. */
export function cacheKey(parts: CacheKeyParts): string {
  const text = JSON.stringify([
    KEY_FORMAT,
    parts.kind,
    parts.objectName,
    parts.version,
    cacheOwner(parts.scope, parts.caller),
    parts.args,
  ]);
  return createHash('sha256').update(text).digest('base64url');
}

/**
 * The tenant one account's entries count against (shares, `response-cache.ts`): its organization within its
 * application, hashed like the keys.
 */
export function tenantOf(caller: CacheCaller): string {
  return createHash('sha256')
    .update(JSON.stringify([caller.applicationCode, caller.organizationCode]))
    .digest('base64url');
}
