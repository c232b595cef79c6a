/**
 * Every block of the README that a reader copies, held to what the gateway does:
 *
 * - each `graphql` block parses; each operation is valid against the schema (with Relay's `Node` where it
 *   spreads on `Node` or uses `node`), and a query that needs no variables is answered on the demo data,
 *   without errors and with something found (a `totalCount` above 0, a page with nodes);
 * - each `yaml` block parses, and a codegen config names no scalar whose type a flow map split;
 * - each `sh` block names only npm scripts that exist and settings the gateway, the emulator or a script
 *   reads (the curl walk-through is run whole by `readme-curl.test.ts`, the start banner is held to the
 *   real one by `test/start/start-command.test.ts`).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as graphql from 'graphql';
import { Kind, OperationTypeNode, parse, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { buildSchema } from '../../src/app/build-schema.ts';
import { EVERY_SETTING } from '../../src/config/env-schema.ts';
import { useHarness } from '../support/gateway-harness.ts';
import { readmeBlocks } from '../support/readme-blocks.ts';
import { DEMO_OBJECTS_DIR } from '../support/object-fixtures.ts';
import { loginDemo, postGraphql } from '../support/post-graphql.ts';

/** The schema is built by the CommonJS copy of graphql-js (through graphql-tools): validate with that one. */
const graphqlCjs = createRequire(import.meta.url)('graphql') as typeof graphql;

const operationsOf = (document: DocumentNode): OperationDefinitionNode[] =>
  document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);

const graphqlBlocks = readmeBlocks('graphql').map((block) => ({ ...block, document: parse(block.text) }));
const executable = graphqlBlocks.filter((block) => operationsOf(block.document).length > 0);

const defaultSchema = buildSchema({ objectsDir: DEMO_OBJECTS_DIR });
const relaySchema = buildSchema({ objectsDir: DEMO_OBJECTS_DIR, relayNode: true });
const needsRelay = (text: string) => /\bon Node\b|\bnode\(id:/.test(text);

describe("the README's GraphQL blocks", () => {
  it('should hold some, each parsing', () => {
    expect(executable.length).toBeGreaterThanOrEqual(2);
  });

  it.each(executable.map((block) => [block.line, block] as const))(
    'should be valid against the schema (line %i)',
    (_line, block) => {
      const schema = needsRelay(block.text) ? relaySchema : defaultSchema;
      const errors = graphqlCjs.validate(schema, graphqlCjs.parse(block.text));
      expect(errors.map((error) => error.message)).toEqual([]);
    },
  );

  describe('answered on the demo data', () => {
    const h = useHarness();

    // Queries without variables: the writes are shown with variables a reader fills in.
    const answerable = executable.filter(
      (block) =>
        !needsRelay(block.text) &&
        operationsOf(block.document).every(
          (operation) =>
            operation.operation === OperationTypeNode.QUERY &&
            (operation.variableDefinitions ?? []).length === 0,
        ),
    );

    it.each(answerable.map((block) => [block.line, block] as const))(
      'should find something without an error (line %i)',
      async (_line, block) => {
        const token = await loginDemo(h.graphqlUrl);
        const answer = await postGraphql(h.graphqlUrl, block.text, {}, { authorization: `Bearer ${token}` });
        expect(answer.errors).toBeUndefined();
        const text = JSON.stringify(answer.data);
        expect(text).not.toMatch(/"totalCount":0\b/);
        expect(text).not.toMatch(/"(nodes|edges)":\[\]/);
      },
    );
  });
});

describe("the README's YAML blocks", () => {
  it.each(readmeBlocks('yaml').map((block) => [block.line, block.text] as const))(
    'should parse, with every codegen scalar a whole type (line %i)',
    (_line, text) => {
      const config = parseYaml(text) as {
        generates?: Record<string, { config?: { scalars?: Record<string, unknown> } }>;
      };
      for (const target of Object.values(config.generates ?? {})) {
        const scalars = target.config?.scalars ?? {};
        // Every scalar the schema declares has a type, and none is a fragment of one split at a comma.
        expect(Object.keys(scalars).sort()).toEqual(['DateTime', 'JSON', 'JSONObject', 'Long']);
        for (const type of Object.values(scalars)) {
          expect(typeof type).toBe('string');
          expect(String(type).split('<').length).toBe(String(type).split('>').length);
        }
      }
    },
  );
});

describe("the README's shell blocks", () => {
  const scripts = Object.keys(
    (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts,
  );
  /** What the scripts and the emulator read besides the gateway's settings. */
  const toolSettings = [
    'INFER_USERNAME',
    'INFER_PASSWORD',
    'UPSTREAM_CHECK_USERNAME',
    'UPSTREAM_CHECK_PASSWORD',
    'RELAY_NODE',
    'TOKEN',
    'LOGIN',
  ];
  const known = new Set([...EVERY_SETTING.map((setting) => setting.env), ...toolSettings]);

  it.each(readmeBlocks('sh').map((block) => [block.line, block.text] as const))(
    'should name only scripts and settings that exist (line %i)',
    (_line, text) => {
      const named = [...text.matchAll(/\bnpm (?:run )?(?:-s )?([a-z][\w:-]*)/g)].map(
        (match) => match[1] ?? '',
      );
      const builtIn = new Set(['ci', 'start', 'test', 'run', 'install']);
      expect(named.filter((name) => !builtIn.has(name) && !scripts.includes(name))).toEqual([]);
      const settings = [...text.matchAll(/\b([A-Z][A-Z0-9_]{2,})=/g)].map((match) => match[1] ?? '');
      expect(settings.filter((name) => !known.has(name))).toEqual([]);
    },
  );
});
