import { describe, expect, it } from 'vitest';
import { EncryptJWT } from 'jose';
import { createSessionSealer, deriveSessionKey } from '../../src/auth/session.ts';
import { SETTING_DEFAULTS } from '../../src/config/defaults.ts';
import { demoCredentials } from '../support/demo-credentials.ts';

const TTL_SECONDS = SETTING_DEFAULTS.SESSION_TTL_SECONDS;

const claims = { ...demoCredentials('demo', 'upstream-secret-token'), userId: 'u1' };

describe('session tokens', () => {
  it('should open what it sealed, and hide the upstream token', async () => {
    const sealer = createSessionSealer({ secret: 'k'.repeat(32), ttlSeconds: TTL_SECONDS });
    const { token } = await sealer.seal(claims);
    expect(token).not.toContain('upstream-secret-token');
    expect(Buffer.from(token.split('.').join(''), 'base64url').toString('latin1')).not.toContain(
      'upstream-secret',
    );
    expect(await sealer.open(token)).toMatchObject(claims);
  });

  it('should seal an upstream session cookie like the token: opened whole, never in the clear', async () => {
    const sealer = createSessionSealer({ secret: 'k'.repeat(32), ttlSeconds: TTL_SECONDS });
    const cookie = 'JSESSIONID=0123456789ABCDEFcookie; route=node7';
    const { token } = await sealer.seal({ ...claims, apiToken: '', sessionCookie: cookie });
    for (const part of token.split('.')) {
      expect(Buffer.from(part, 'base64url').toString('latin1')).not.toContain('0123456789ABCDEF');
    }
    expect(await sealer.open(token)).toMatchObject({ apiToken: '', sessionCookie: cookie });
    // A token session carries no cookie.
    const { token: plain } = await sealer.seal(claims);
    expect(await sealer.open(plain)).not.toHaveProperty('sessionCookie');
  });

  it('should refuse a token sealed with another key', async () => {
    const { token } = await createSessionSealer({ secret: 'a'.repeat(32), ttlSeconds: TTL_SECONDS }).seal(
      claims,
    );
    expect(
      await createSessionSealer({ secret: 'b'.repeat(32), ttlSeconds: TTL_SECONDS }).open(token),
    ).toBeNull();
  });

  it('should refuse a tampered token', async () => {
    const sealer = createSessionSealer({ secret: 'k'.repeat(32), ttlSeconds: TTL_SECONDS });
    const { token } = await sealer.seal(claims);
    const parts = token.split('.');
    const cipher = parts[3]!;
    parts[3] = (cipher.startsWith('A') ? 'B' : 'A') + cipher.slice(1);
    expect(await sealer.open(parts.join('.'))).toBeNull();
  });

  it('should refuse an expired token, also once it was cached', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const sealer = createSessionSealer({ secret: 'k'.repeat(32), ttlSeconds: 60, now: () => now });
    const { token } = await sealer.seal(claims);
    expect(await sealer.open(token)).not.toBeNull();
    now += 61_000;
    expect(await sealer.open(token)).toBeNull();
    const fresh = createSessionSealer({ secret: 'k'.repeat(32), ttlSeconds: 60, now: () => now });
    expect(await fresh.open(token)).toBeNull();
  });

  it('should survive a restart with the same secret', async () => {
    const { token } = await createSessionSealer({ secret: 'k'.repeat(32), ttlSeconds: TTL_SECONDS }).seal(
      claims,
    );
    expect(
      await createSessionSealer({ secret: 'k'.repeat(32), ttlSeconds: TTL_SECONDS }).open(token),
    ).toMatchObject(claims);
  });

  it('should give every token its own jti and iat, and tell an expired token from an invalid one', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const sealer = createSessionSealer({ secret: 'k'.repeat(32), ttlSeconds: 60, now: () => now });
    const a = await sealer.seal(claims);
    const b = await sealer.seal(claims);
    expect(a.claims.tokenId).not.toBe(b.claims.tokenId);
    expect(a.claims.issuedAtSeconds).toBe(now / 1000);
    now += 61_000;
    expect(await sealer.inspect(a.token)).toEqual({ status: 'expired' });
    expect(await sealer.inspect('garbage')).toEqual({ status: 'invalid' });
  });

  it('should refuse tokens under algorithms it does not issue, or compressed, even with its own key', async () => {
    const sealer = createSessionSealer({ secret: 'k'.repeat(32), ttlSeconds: TTL_SECONDS });
    const key = deriveSessionKey('k'.repeat(32));
    const payload = { u: 'demo', i: null, a: 'demo', o: 'acme', t: 'x' };
    for (const header of [
      { alg: 'A256KW', enc: 'A256GCM' },
      { alg: 'dir', enc: 'A128CBC-HS256' },
      { alg: 'dir', enc: 'A256GCM', zip: 'DEF' },
    ]) {
      const token = await new EncryptJWT(payload)
        .setProtectedHeader(header)
        .setJti('j')
        .setIssuedAt()
        .setExpirationTime('1h')
        .encrypt(key);
      expect(await sealer.inspect(token)).toEqual({ status: 'invalid' });
    }
    const genuine = await new EncryptJWT(payload)
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setJti('j')
      .setIssuedAt()
      .setExpirationTime('1h')
      .encrypt(key);
    expect((await sealer.inspect(genuine)).status).toBe('open');
  });

  it('should open tokens of the previous secret during a rotation, and seal with the current one', async () => {
    const { token: old } = await createSessionSealer({
      secret: 'a'.repeat(32),
      ttlSeconds: TTL_SECONDS,
    }).seal(claims);
    const rotating = createSessionSealer({
      secret: 'b'.repeat(32),
      previousSecret: 'a'.repeat(32),
      ttlSeconds: TTL_SECONDS,
    });
    expect(await rotating.open(old)).toMatchObject(claims);
    const { token: fresh } = await rotating.seal(claims);
    expect(
      await createSessionSealer({ secret: 'a'.repeat(32), ttlSeconds: TTL_SECONDS }).open(fresh),
    ).toBeNull();
    expect(
      await createSessionSealer({ secret: 'b'.repeat(32), ttlSeconds: TTL_SECONDS }).open(fresh),
    ).toMatchObject(claims);
  });
});
