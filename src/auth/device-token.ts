/**
 * Device tokens (OWASP authentication cheat sheet, "device cookies"): `login` returns one after every
 * successful login, and a client that sends it back proves it logged in to that account before. Failures
 * made elsewhere never lock such a client out (see `src/auth/login-limiter.ts`).
 *
 * A JWS (`HS256` only) whose key is derived from `SESSION_SECRET` under its own label (a device token is no
 * session and a session is no device token); tokens signed under `SESSION_SECRET_PREVIOUS` still verify. It
 * names the device (`jti`, random, kept across renewals), the account's counter key and the name typed. A
 * secret: never logged.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';

/** What a genuine device token says. */
export interface DeviceClaims {
  /** The device's id: its own failure counter. */
  deviceId: string;
  /** The account counter key when the token was issued. */
  account: string;
  /** The counter key of the name typed at that login. */
  name: string;
}

/** Options of {@link createDeviceTokens}. */
export interface DeviceTokensOptions {
  /** `SESSION_SECRET`; `undefined` = a random key per process (development only). */
  secret: string | undefined;
  /** `SESSION_SECRET_PREVIOUS`: still verifies, never signs. */
  previousSecret?: string | undefined;
  /** `LOGIN_DEVICE_TTL_SECONDS`: lifetime of a device token. */
  ttlSeconds: number;
}

/** See {@link createDeviceTokens}. */
export interface DeviceTokens {
  issue(claims: DeviceClaims): Promise<string>;
  /** The claims of a genuine, unexpired token, or `undefined` for anything else. Never throws. */
  verify(token: unknown): Promise<DeviceClaims | undefined>;
}

const payloadSchema = z.object({
  jti: z.string().min(1).max(64),
  acc: z.string().max(64),
  nam: z.string().max(64),
});

/** SHA-256 of a versioned label and the secret (a different label from the session key's). */
function deriveDeviceKey(secret: string): Uint8Array {
  return createHash('sha256').update('jsonp-graphql-gateway/device/v1\0').update(secret).digest();
}

/** Creates the issuer and verifier. */
export function createDeviceTokens(options: DeviceTokensOptions): DeviceTokens {
  const key = options.secret === undefined ? randomBytes(32) : deriveDeviceKey(options.secret);
  const keys = options.previousSecret === undefined ? [key] : [key, deriveDeviceKey(options.previousSecret)];

  return {
    async issue(claims) {
      return new SignJWT({ acc: claims.account, nam: claims.name })
        .setProtectedHeader({ alg: 'HS256', typ: 'device+jwt' })
        .setJti(claims.deviceId)
        .setIssuedAt()
        .setExpirationTime(`${options.ttlSeconds}s`)
        .sign(key);
    },

    async verify(token) {
      if (typeof token !== 'string' || token.length === 0 || token.length > 1024) return undefined;
      for (const candidate of keys) {
        try {
          const { payload } = await jwtVerify(token, candidate, {
            algorithms: ['HS256'],
            typ: 'device+jwt',
            requiredClaims: ['jti', 'exp', 'iat'],
          });
          const parsed = payloadSchema.safeParse(payload);
          if (!parsed.success) return undefined;
          return { deviceId: parsed.data.jti, account: parsed.data.acc, name: parsed.data.nam };
        } catch {
          // Wrong key (try the previous one), expired, forged or malformed: not a known device.
        }
      }
      return undefined;
    },
  };
}

/** A fresh device id, for a client that had no (valid) device token. */
export function newDeviceId(): string {
  return randomUUID();
}
