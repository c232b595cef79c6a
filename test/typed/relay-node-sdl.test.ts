/** `RELAY_NODE=true` on the schema: what it adds, and the one name a team's type must leave to it. */
import type { GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/app/build-schema.ts';
import { useObjectTypesFolders } from '../support/use-object-types-folders.ts';

const folderWith = useObjectTypesFolders('relay-sdl-');
const objectsDir = (sdl: string): string => folderWith({ 'invoice.graphql': sdl });

describe('the schema with RELAY_NODE', () => {
  it('should make every typed type and DataObject a Node with upstreamId, and add node and nodes', () => {
    const dir = objectsDir(
      'type Invoice @dataObject(name: "com.acme.Invoice") {\n  id: ID!\n  total: Float\n}\n',
    );
    const schema = buildSchema({ objectsDir: dir, relayNode: true });
    for (const type of ['Invoice', 'DataObject']) {
      const object = schema.getType(type) as GraphQLObjectType;
      expect(object.getInterfaces().map((i) => i.name)).toEqual(['Node']);
      expect(String(object.getFields().upstreamId?.type)).toBe('ID!');
    }
    const query = schema.getQueryType()?.getFields();
    expect(String(query?.node?.type)).toBe('Node');
    expect(query?.node?.args.map((a) => `${a.name}: ${String(a.type)}`)).toEqual(['id: ID!']);
    expect(String(query?.nodes?.type)).toBe('[Node]!');
    expect(query?.nodes?.args.map((a) => `${a.name}: ${String(a.type)}`)).toEqual(['ids: [ID!]!']);
    expect(buildSchema({ objectsDir: dir }).getType('Node')).toBeUndefined();
  });

  it("should give no write payload an `id`, so Relay's store never merges a payload into its object", () => {
    const dir = objectsDir(
      'type Invoice @dataObject(name: "com.acme.Invoice") {\n  id: ID!\n  total: Float\n}\n',
    );
    const schema = buildSchema({ objectsDir: dir, relayNode: true });
    for (const type of ['SavePayload', 'UpdatePayload', 'InvoiceSavePayload', 'InvoiceUpdatePayload']) {
      const fields = (schema.getType(type) as GraphQLObjectType).getFields();
      expect(fields.id).toBeUndefined();
      expect(String(fields.upstreamId?.type)).toBe('ID!');
      expect(fields.object).toBeDefined();
    }
    const plain = buildSchema({ objectsDir: dir });
    expect(String((plain.getType('InvoiceSavePayload') as GraphQLObjectType).getFields().id?.type)).toBe(
      'ID!',
    );
  });

  it('should stop the start when a typed type declares upstreamId, saying how to fix it', () => {
    const dir = objectsDir(
      'type Invoice @dataObject(name: "com.acme.Invoice") {\n  id: ID!\n  upstreamId: String\n}\n',
    );
    expect(() => buildSchema({ objectsDir: dir, relayNode: true })).toThrow(
      /RELAY_NODE: type Invoice declares "upstreamId".*Fix: rename that field, or leave RELAY_NODE off/,
    );
    expect(() => buildSchema({ objectsDir: dir })).not.toThrow();
  });
});
