/**
 * Hostile global ids (`RELAY_NODE=true`) through the real gateway: whatever text a caller sends as `node(id:)`
 * or in `nodes(ids:)`, the answer is a coded `BAD_USER_INPUT` or, for an id the gateway could have written,
 * an answer; never a crash, a 500 or an upstream call for an id it refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../src/typed/global-id.ts';
import { useHarness } from '../support/gateway-harness.ts';

const h = useHarness({ env: { RELAY_NODE: 'true' }, listen: false });

/** Texts near the format: other type names, part counts, versions, raw bytes, and plain junk. */
const hostileId = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.base64String({ maxLength: 200 }),
  fc.array(fc.string({ maxLength: 12 }), { maxLength: 5 }).map(encodeGlobalId),
  fc
    .tuple(fc.constantFrom('0', '1', '2', '1:', '1::'), fc.string({ maxLength: 40 }))
    .map(([head, tail]) => Buffer.from(head + tail, 'utf8').toString('base64url')),
  fc.uint8Array({ maxLength: 60 }).map((bytes) => Buffer.from(bytes).toString('base64url')),
);

describe('hostile global ids', () => {
  it('should answer BAD_USER_INPUT without an upstream call, or a plain answer, for any text', async () => {
    const auth = await h.loginHeaders();
    await fc.assert(
      fc.asyncProperty(hostileId, async (id) => {
        h.emulator.resetStats();
        const one = await h.post('query ($id: ID!) { node(id: $id) { id } }', { id }, auth);
        const many = await h.post(
          'query ($ids: [ID!]!) { nodes(ids: $ids) { id } }',
          { ids: [id, id] },
          auth,
        );
        for (const answer of [one, many]) {
          expect(answer.status).toBe(200);
          const codes = (answer.errors ?? []).map((error) => error.extensions?.code);
          if (codes.length > 0) expect(codes).toEqual(codes.map(() => 'BAD_USER_INPUT'));
        }
        // A refused id reaches nothing (both requests refuse it); an id of the gateway's own form may be read.
        if (one.errors?.[0]?.message.includes('not a global id') === true) {
          expect(h.totalUpstreamCalls()).toBe(0);
        }
      }),
      { numRuns: 60 },
    );
  });
});
