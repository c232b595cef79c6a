/**
 * The gateway's session tokens: a JWE (`dir` + `A256GCM`, nothing else) sealing the upstream token (or the
 * upstream's session cookie) and who the user is. Nobody can read or forge one without the key, which is
 * derived from `SESSION_SECRET`; a token sealed under `SESSION_SECRET_PREVIOUS` still opens (key rotation),
 * but nothing new is sealed with it.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { EncryptJWT, errors, jwtDecrypt } from 'jose';
import { z } from 'zod';

/**
 * What a session carries. `apiToken` is the upstream's token, `sessionCookie` the upstream's session cookie:
 * secrets, never logged or returned.
 */
export interface SessionClaims {
  username: string;
  /** The upstream's user id (the form login answers it; `null` after the JSON login). */
  userId: string | null;
  /**
   * The account, learnt at login (`src/auth/user-key.ts`: read it only through `userKeyOf`); absent in
   * sessions sealed before it was.
   */
  account?: string | undefined;
  applicationCode: string;
  organizationCode: string | null;
  /** Empty when the form login answered no token but a session cookie ({@link SessionClaims.sessionCookie}). */
  apiToken: string;
  /** The `Cookie` header of the upstream's own session (a form login without a token); absent otherwise. */
  sessionCookie?: string | undefined;
  /** The token's id (`jti`): what logout and the revocation list name. */
  tokenId: string;
  /** Issue time, seconds since the epoch. */
  issuedAtSeconds: number;
  /** Expiry, seconds since the epoch. */
  expiresAtSeconds: number;
}

/** What {@link SessionSealer.inspect} finds in a token. */
export type SessionOpening =
  | { status: 'open'; claims: SessionClaims }
  /** Genuine (it decrypted under a gateway key) but past its expiry. */
  | { status: 'expired' }
  /** Malformed, forged, under another algorithm, compressed, or missing a required claim. */
  | { status: 'invalid' };

/** Options of {@link createSessionSealer}. */
export interface SessionSealerOptions {
  /** At least 32 characters; `undefined` = a random key per process (development only). */
  secret: string | undefined;
  /** `SESSION_SECRET_PREVIOUS`: the secret being rotated out; its tokens still open, none is sealed with it. */
  previousSecret?: string | undefined;
  /** `SESSION_TTL_SECONDS`: lifetime of new sessions. */
  ttlSeconds: number;
  /** Opened sessions kept to skip the decrypt on repeat requests. Default `10_000`. */
  cacheSize?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/** Seals and opens session tokens. */
export interface SessionSealer {
  seal(
    claims: Omit<SessionClaims, 'expiresAtSeconds' | 'tokenId' | 'issuedAtSeconds'>,
  ): Promise<{ token: string; claims: SessionClaims }>;
  /** The claims, or why there are none. Never throws. */
  inspect(token: string): Promise<SessionOpening>;
  /** The claims, or `null` for a token that is malformed, forged or expired. Never throws. */
  open(token: string): Promise<SessionClaims | null>;
}

const claimsSchema = z.object({
  u: z.string(),
  i: z.string().nullable(),
  k: z.string().optional(),
  a: z.string(),
  o: z.string().nullable(),
  t: z.string(),
  c: z.string().optional(),
  jti: z.string().min(1),
  iat: z.number(),
  exp: z.number(),
});

/** The only algorithms the gateway issues, and so the only ones it opens (no `A256KW`, no `A128CBC-HS256`). */
const DECRYPT_OPTIONS = {
  keyManagementAlgorithms: ['dir'],
  contentEncryptionAlgorithms: ['A256GCM'],
  requiredClaims: ['jti', 'exp', 'iat'],
  // 0 refuses `zip: "DEF"`: the gateway never compresses, and inflating is work an attacker could ask for.
  maxDecompressedLength: 0,
} as const;

/** SHA-256 of a versioned label and the secret: 32 bytes, the key size of A256GCM. */
export function deriveSessionKey(secret: string): Uint8Array {
  return createHash('sha256').update('jsonp-graphql-gateway/session/v1\0').update(secret).digest();
}

/** Creates a sealer whose key is derived from `secret`. */
export function createSessionSealer(options: SessionSealerOptions): SessionSealer {
  const key = options.secret === undefined ? randomBytes(32) : deriveSessionKey(options.secret);
  const keys = options.previousSecret === undefined ? [key] : [key, deriveSessionKey(options.previousSecret)];
  const { ttlSeconds } = options;
  const cacheSize = options.cacheSize ?? 10_000;
  const now = options.now ?? Date.now;
  // Decrypting a JWE costs more than the rest of a small request; opened sessions are cached by token. Only
  // a token that decrypted successfully gets in, so garbage cannot fill the cache.
  const opened = new Map<string, SessionClaims>();

  async function decrypt(token: string): Promise<SessionOpening> {
    for (const candidate of keys) {
      try {
        const { payload } = await jwtDecrypt(token, candidate, {
          ...DECRYPT_OPTIONS,
          keyManagementAlgorithms: [...DECRYPT_OPTIONS.keyManagementAlgorithms],
          contentEncryptionAlgorithms: [...DECRYPT_OPTIONS.contentEncryptionAlgorithms],
          requiredClaims: [...DECRYPT_OPTIONS.requiredClaims],
          currentDate: new Date(now()),
        });
        const parsed = claimsSchema.safeParse(payload);
        if (!parsed.success) return { status: 'invalid' };
        const c = parsed.data;
        return {
          status: 'open',
          claims: {
            username: c.u,
            userId: c.i,
            ...(c.k === undefined ? {} : { account: c.k }),
            applicationCode: c.a,
            organizationCode: c.o,
            apiToken: c.t,
            ...(c.c === undefined ? {} : { sessionCookie: c.c }),
            tokenId: c.jti,
            issuedAtSeconds: c.iat,
            expiresAtSeconds: c.exp,
          },
        };
      } catch (error) {
        // Only a token that decrypted can be "expired"; under the wrong key, the next key is tried.
        if (error instanceof errors.JWTExpired) return { status: 'expired' };
        if (error instanceof errors.JWEDecryptionFailed) continue;
        return { status: 'invalid' };
      }
    }
    return { status: 'invalid' };
  }

  async function inspect(token: string): Promise<SessionOpening> {
    const nowSeconds = now() / 1000;
    const cached = opened.get(token);
    if (cached !== undefined) {
      if (cached.expiresAtSeconds > nowSeconds) return { status: 'open', claims: cached };
      opened.delete(token);
      return { status: 'expired' };
    }
    if (token.length > 4096) return { status: 'invalid' };
    const opening = await decrypt(token);
    if (opening.status !== 'open') return opening;
    if (opened.size >= cacheSize) {
      // Oldest first: Map keeps insertion order.
      const oldest = opened.keys().next();
      if (oldest.done !== true) opened.delete(oldest.value);
    }
    opened.set(token, opening.claims);
    return opening;
  }

  return {
    async seal(claims) {
      const issuedAtSeconds = Math.floor(now() / 1000);
      const expiresAtSeconds = issuedAtSeconds + ttlSeconds;
      const tokenId = randomUUID();
      const token = await new EncryptJWT({
        u: claims.username,
        i: claims.userId,
        ...(claims.account === undefined ? {} : { k: claims.account }),
        a: claims.applicationCode,
        o: claims.organizationCode,
        t: claims.apiToken,
        // Sealed like the token: encrypted with the rest, never readable by the client.
        ...(claims.sessionCookie === undefined ? {} : { c: claims.sessionCookie }),
      })
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
        .setJti(tokenId)
        .setIssuedAt(issuedAtSeconds)
        .setExpirationTime(expiresAtSeconds)
        .encrypt(key);
      return { token, claims: { ...claims, tokenId, issuedAtSeconds, expiresAtSeconds } };
    },
    inspect,
    async open(token) {
      const opening = await inspect(token);
      return opening.status === 'open' ? opening.claims : null;
    },
  };
}
