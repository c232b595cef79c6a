/**
 * The read handle and the write handle are different types: which one a resolver picks decides whether
 * its reads are shared and cached, so picking the wrong one must not compile. `npm run check:type` checks
 * the `@ts-expect-error` lines below; the test shows at run time what they name.
 */
import { describe, expect, it } from 'vitest';
import type { GatewayServices } from '../../src/graphql/context.ts';

type WriteOperation = keyof GatewayServices['writes'];
type ReadOperation = keyof GatewayServices['reads'];

describe('upstream handles', () => {
  it('should offer reads on the read handle and writes and logins on the write handle', () => {
    const reads = ['getObject', 'getAll', 'getMetadata'] as const satisfies readonly ReadOperation[];
    const writes = ['save', 'update', 'loginJson', 'loginForm'] as const satisfies readonly WriteOperation[];
    expect([...reads, ...writes]).toHaveLength(7);
  });

  it('should refuse, at compile time, a read through the write handle and a write through the read handle', () => {
    const misuses: string[] = [
      // @ts-expect-error the write handle has no reads: one through it would skip coalescing and loaders
      'getObject' satisfies WriteOperation,
      // @ts-expect-error the write handle has no reads
      'getAll' satisfies WriteOperation,
      // @ts-expect-error the write handle has no reads
      'getMetadata' satisfies WriteOperation,
      // @ts-expect-error the read handle has no writes: one through it could be shared with another
      'save' satisfies ReadOperation,
      // @ts-expect-error the read handle has no writes
      'update' satisfies ReadOperation,
      // @ts-expect-error the read handle has no logins
      'loginJson' satisfies ReadOperation,
    ];
    expect(misuses).toHaveLength(6);
  });
});
