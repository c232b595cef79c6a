/**
 * `FEDERATION=true` with `RELAY_NODE=true`: `id` is the global id, so every entity keeps `@key(fields: "id")`
 * (the router passes back the ids this subgraph answered) and gains `@key(fields: "upstreamId")` (DataObject:
 * `objectName upstreamId`), for subgraphs that hold the upstream's ids in their own data. Both resolve
 * through the batching loader; a global id of another type is BAD_USER_INPUT.
 */
import { describe, expect, it } from 'vitest';
import { encodeGlobalId } from '../../src/typed/global-id.ts';
import { useHarness } from '../support/gateway-harness.ts';

const h = useHarness({
  env: { FEDERATION: 'true', RELAY_NODE: 'true' },
  listen: false,
  resetStatsEachTest: true,
});

const ENTITIES = `query ($r: [_Any!]!) {
  _entities(representations: $r) { ... on Customer { id upstreamId name } ... on DataObject { id objectName } }
}`;

/** `_entities` of `representations` asked by a logged-in caller, the upstream calls counted from then on. */
async function entitiesOfCaller(representations: Record<string, unknown>[]) {
  const auth = await h.loginHeaders();
  h.emulator.resetStats();
  return h.post(ENTITIES, { r: representations }, auth);
}

describe('federation keys with RELAY_NODE', () => {
  it('should publish both keys', async () => {
    const service = await h.post('{ _service { sdl } }');
    const sdl = (service.data?._service as { sdl: string }).sdl;
    expect(sdl).toMatch(
      /type Customer implements Node[^{]*@key\(fields: "id"\)\s*@key\(fields: "upstreamId"\)/,
    );
    expect(sdl).toMatch(/type DataObject implements Node[^{]*@key\(fields: "objectName upstreamId"\)/);
  });

  it('should resolve references by global id and by upstream id, in one getAll', async () => {
    const auth = await h.loginHeaders();
    const page = await h.post('{ customers(first: 2) { nodes { id upstreamId name } } }', {}, auth);
    const [a, b] = (page.data?.customers as { nodes: { id: string; upstreamId: string; name: string }[] })
      .nodes;
    if (a === undefined || b === undefined) throw new Error('expected two customers');
    h.emulator.resetStats();
    const answer = await h.post(
      ENTITIES,
      {
        r: [
          { __typename: 'Customer', id: a.id },
          { __typename: 'Customer', upstreamId: b.upstreamId },
          { __typename: 'DataObject', objectName: 'com.example.Customer', upstreamId: a.upstreamId },
        ],
      },
      auth,
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data?._entities).toEqual([
      a,
      b,
      {
        id: encodeGlobalId(['DataObject', 'com.example.Customer', a.upstreamId]),
        objectName: 'com.example.Customer',
      },
    ]);
    expect(h.upstreamCalls().getAll).toBe(1);
  });

  it("should refuse a representation holding another type's global id", async () => {
    const answer = await entitiesOfCaller([{ __typename: 'Customer', id: encodeGlobalId(['Order', 'o1']) }]);
    expect(answer.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(answer.errors?.[0]?.message).toContain('holds the global id of an Order');
    expect(h.totalUpstreamCalls()).toBe(0);
  });

  it("should refuse a global id given as a representation's upstreamId, naming both kinds of id", async () => {
    const answer = await entitiesOfCaller([
      { __typename: 'Customer', upstreamId: encodeGlobalId(['Customer', 'c-000001']) },
    ]);
    expect(answer.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      argumentName: 'representations',
    });
    expect(answer.errors?.[0]?.message).toBe(
      'a representation of Customer holds a global id (the `id` of a Customer) as its upstreamId: key it by `id`, or give the upstream id.',
    );
    expect(h.totalUpstreamCalls()).toBe(0);
  });

  it('should answer a representation of an unknown type beside a pending lookup with an error, leaving no rejection unhandled', async () => {
    const auth = await h.loginHeaders();
    const rejections: unknown[] = [];
    const record = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', record);
    try {
      // The first lookup is pending (and fails: not a global id) when @apollo/subgraph throws on the second:
      // nothing awaited the first, so its rejection was unhandled, which ends a Node process.
      const answer = await h.post(
        ENTITIES,
        {
          r: [
            { __typename: 'Customer', id: 'not-a-global-id' },
            { __typename: 'NoSuchType', id: 'x' },
          ],
        },
        auth,
      );
      expect(answer.errors?.[0]?.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        argumentName: 'representations',
      });
      expect(answer.errors?.[0]?.message).toContain('"NoSuchType"');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});
