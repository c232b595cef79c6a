/**
 * The write handle with the response cache kept honest: every save and update replaces its type's version
 * (`cache-versions.ts`) as soon as the upstream answered, whatever it answered (a failed write may still
 * have been applied), and before the write's caller reads anything back. With Redis that is every replica's
 * version: the writer's next read, through any replica, misses and reads upstream.
 */
import type { UpstreamWrites } from '../upstream/client/types.ts';
import type { ResponseCache } from './response-cache.ts';

/** `writes`, whose saves and updates replace their type's cache version once the upstream answered. */
export function invalidatingWrites(writes: UpstreamWrites, cache: ResponseCache): UpstreamWrites {
  const replace = (organizationCode: string | undefined, objectName: string) =>
    cache.policyOf(objectName) === undefined
      ? Promise.resolve()
      : cache.versions.replace(organizationCode, objectName);
  const handle: UpstreamWrites = {
    loginJson: (username, password, share) => writes.loginJson(username, password, share),
    loginForm: (username, password, share) => writes.loginForm(username, password, share),
    async save(credentials, objectName, data) {
      try {
        return await writes.save(credentials, objectName, data);
      } finally {
        await replace(credentials.organizationCode, objectName);
      }
    },
    async update(credentials, objectName, id, data, beforeSend) {
      try {
        // `beforeSend` reads the object first (an update by _id alone may reach another organization's).
        return await writes.update(credentials, objectName, id, data, beforeSend);
      } finally {
        await replace(credentials.organizationCode, objectName);
      }
    },
  };
  const lossy = writes.mayAnswerLossyText?.bind(writes);
  if (lossy !== undefined) handle.mayAnswerLossyText = lossy;
  return handle;
}
