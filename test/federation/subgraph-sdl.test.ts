/** `npm run schema:print -- --federation`: the subgraph SDL a composition pipeline publishes. */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { DEMO_OBJECTS_DIR } from '../support/object-fixtures.ts';

const NODE = resolve('node_modules/.bin/node');
/** The demo types, not the repository's folder, where a team keeps its own. */
const DEMO = { env: { ...process.env, OBJECT_TYPES_DIR: DEMO_OBJECTS_DIR } };

describe('the subgraph SDL', () => {
  const sdl = execFileSync(NODE, ['scripts/print-schema.ts', '--federation'], { encoding: 'utf8', ...DEMO });

  it('should link Federation 2 and key every typed object type by id', () => {
    expect(sdl).toContain(
      '@link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable"])',
    );
    for (const type of ['Customer', 'LoanType', 'Order']) {
      expect(sdl).toMatch(new RegExp(`type ${type}[^{]*@key\\(fields: "id"\\)`));
    }
  });

  it('should mark PageInfo and the connection helper types @shareable, so another PageInfo composes', () => {
    for (const type of [
      'PageInfo',
      'DataObjectConnection',
      'DataObjectEdge',
      'CustomerConnection',
      'CustomerEdge',
    ]) {
      expect(sdl).toMatch(new RegExp(`type ${type}\\s+@shareable`));
    }
    expect(sdl).not.toMatch(/type (Customer|DataObject|Session|User)\s[^{]*@shareable/);
  });

  it('should rename the session API and the generic names with --name-prefix (FEDERATION_NAME_PREFIX)', () => {
    const prefixed = execFileSync(
      NODE,
      ['scripts/print-schema.ts', '--federation', '--name-prefix', 'Objects'],
      { encoding: 'utf8', ...DEMO },
    );
    for (const name of [
      'objectsMe: ObjectsSession',
      'objectsLogin(',
      'objectsLogout: Boolean!',
      'type ObjectsUser',
      'type ObjectsLoginPayload',
      'enum ObjectsLoginMethod',
      'objectsObject(',
      'objectsObjects(',
      'objectsMetadata(',
      'type ObjectsSavePayload',
      'input ObjectsFilterInput',
      'input ObjectsCriterionInput',
      'enum ObjectsFilterOperator',
      'input ObjectsFieldFilter',
      'where: CustomerWhere',
      'name: ObjectsFieldFilter',
    ]) {
      expect(prefixed).toContain(name);
    }
    const roots = (prefixed.match(/^type (Query|Mutation) \{[\s\S]*?^\}/gm) ?? []).join('\n');
    expect(roots).toContain('objectsLogin(');
    expect(roots).not.toMatch(/^ {2}(me|login|logout|object|objects|metadata)[(:]/m);
    expect(prefixed).not.toMatch(/^(type|input|enum) (User|Session|LoginPayload|FilterInput|FieldFilter) /m);
    // Entities, the types named after them, PageInfo and ObjectMetadata keep their names.
    for (const kept of [
      'customers(',
      'type Customer\n',
      'input CustomerWhere',
      'type PageInfo',
      'type ObjectMetadata',
    ]) {
      expect(prefixed).toContain(kept);
    }
  });

  it('should key the generic DataObject by objectName and id', () => {
    expect(sdl).toMatch(/type DataObject[^{]*@key\(fields: "objectName id"\)/);
  });

  it('should leave the schema as it was unless FEDERATION=true', () => {
    expect(loadConfig({}).federation).toBe(false);
    expect(loadConfig({ FEDERATION: 'true' }).federation).toBe(true);
    const plain = execFileSync(NODE, ['scripts/print-schema.ts'], { encoding: 'utf8', ...DEMO });
    expect(plain).not.toContain('@key');
    expect(plain).not.toContain('_entities');
  });
});
