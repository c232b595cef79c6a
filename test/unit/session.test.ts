import { describe, expect, it } from 'vitest';
import { createSessionSealer } from '../../src/session.ts';

const claims = {
  username: 'demo',
  userId: 'u1',
  applicationCode: 'demo',
  organizationCode: 'acme',
  apiToken: 'upstream-secret-token',
};

describe('session tokens', () => {
  it('should open what it sealed, and hide the upstream token', async () => {
    const sealer = createSessionSealer({ secret: 'k'.repeat(32) });
    const { token } = await sealer.seal(claims);
    expect(token).not.toContain('upstream-secret-token');
    expect(Buffer.from(token.split('.').join(''), 'base64url').toString('latin1')).not.toContain(
      'upstream-secret',
    );
    expect(await sealer.open(token)).toMatchObject(claims);
  });

  it('should refuse a token sealed with another key', async () => {
    const { token } = await createSessionSealer({ secret: 'a'.repeat(32) }).seal(claims);
    expect(await createSessionSealer({ secret: 'b'.repeat(32) }).open(token)).toBeNull();
  });

  it('should refuse a tampered token', async () => {
    const sealer = createSessionSealer({ secret: 'k'.repeat(32) });
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
    const { token } = await createSessionSealer({ secret: 'k'.repeat(32) }).seal(claims);
    expect(await createSessionSealer({ secret: 'k'.repeat(32) }).open(token)).toMatchObject(claims);
  });
});
