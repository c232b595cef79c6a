/** Makes the gateway's pattern guard refuse every pattern, to see how a refusal reaches the caller. */
import { vi } from 'vitest';
import type { Harness } from './gateway-harness.ts';

/**
 * Runs `test` while `h`'s pattern guard finds every pattern risky for `reason`, then restores the guard.
 * `check` is the guard's spied `check`, to assert what was checked and on whose share.
 */
export async function withRiskyPatterns(
  h: Harness,
  reason: string,
  test: (check: ReturnType<typeof spyOnCheck>) => Promise<void>,
): Promise<void> {
  const check = spyOnCheck(h).mockResolvedValue({ ok: false, reason });
  try {
    await test(check);
  } finally {
    check.mockRestore();
  }
}

const spyOnCheck = (h: Harness) => vi.spyOn(h.gateway.services.patternGuard, 'check');
