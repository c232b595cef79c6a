/**
 * The gateway's session tokens: a JWE (`dir` + `A256GCM`) sealing the upstream token and who the user is.
 * Nobody can read or forge one without the key, which is derived from `SESSION_SECRET`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { EncryptJWT, jwtDecrypt } from 'jose';
import { z } from 'zod';

/** What a session carries. `apiToken` is the upstream's token: a secret, never logged or returned. */
export interface SessionClaims {
  username: string;
  userId: string | null;
  applicationCode: string;
  organizationCode: string | null;
  apiToken: string;
  /** Expiry, seconds since the epoch. */
  expiresAtSeconds: number;
}

/** Options of {@link createSessionSealer}. */
export interface SessionSealerOptions {
  /** At least 32 characters; `undefined` = a random key per process (development only). */
  secret: string | undefined;
  /** Lifetime of new sessions. Default `28_800` (8 h). */
  ttlSeconds?: number;
  /** Opened sessions kept to skip the decrypt on repeat requests. Default `10_000`. */
  cacheSize?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/** Seals and opens session tokens. */
export interface SessionSealer {
  seal(claims: Omit<SessionClaims, 'expiresAtSeconds'>): Promise<{ token: string; claims: SessionClaims }>;
  /** The claims, or `null` for a token that is malformed, forged or expired. Never throws. */
  open(token: string): Promise<SessionClaims | null>;
}

const claimsSchema = z.object({
  u: z.string(),
  i: z.string().nullable(),
  a: z.string(),
  o: z.string().nullable(),
  t: z.string(),
  exp: z.number(),
});

/** Creates a sealer whose key is derived from `secret` (SHA-256, 32 bytes for A256GCM). */
export function createSessionSealer(options: SessionSealerOptions): SessionSealer {
  const key =
    options.secret === undefined
      ? randomBytes(32)
      : createHash('sha256').update('jsonp-graphql-gateway/session/v1\0').update(options.secret).digest();
  const ttlSeconds = options.ttlSeconds ?? 28_800;
  const cacheSize = options.cacheSize ?? 10_000;
  const now = options.now ?? Date.now;
  // Decrypting a JWE costs more than the rest of a small request; opened sessions are cached by token. Only
  // a token that decrypted successfully gets in, so garbage cannot fill the cache.
  const opened = new Map<string, SessionClaims>();

  return {
    async seal(claims) {
      const expiresAtSeconds = Math.floor(now() / 1000) + ttlSeconds;
      const token = await new EncryptJWT({
        u: claims.username,
        i: claims.userId,
        a: claims.applicationCode,
        o: claims.organizationCode,
        t: claims.apiToken,
      })
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
        .setIssuedAt(Math.floor(now() / 1000))
        .setExpirationTime(expiresAtSeconds)
        .encrypt(key);
      return { token, claims: { ...claims, expiresAtSeconds } };
    },

    async open(token) {
      const nowSeconds = now() / 1000;
      const cached = opened.get(token);
      if (cached !== undefined) {
        if (cached.expiresAtSeconds > nowSeconds) return cached;
        opened.delete(token);
        return null;
      }
      if (token.length > 4096) return null;
      try {
        const { payload } = await jwtDecrypt(token, key, { currentDate: new Date(now()) });
        const parsed = claimsSchema.safeParse(payload);
        if (!parsed.success) return null;
        const c = parsed.data;
        const claims: SessionClaims = {
          username: c.u,
          userId: c.i,
          applicationCode: c.a,
          organizationCode: c.o,
          apiToken: c.t,
          expiresAtSeconds: c.exp,
        };
        if (opened.size >= cacheSize) {
          // Oldest first: Map keeps insertion order.
          const oldest = opened.keys().next();
          if (oldest.done !== true) opened.delete(oldest.value);
        }
        opened.set(token, claims);
        return claims;
      } catch {
        return null;
      }
    },
  };
}
