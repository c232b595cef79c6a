/**
 * The compiled documents' bound (`src/execution/compiled-executor.ts`): distinct documents, as many as a
 * caller sends, never keep more than `maxBytes` of weight, and a document that would weigh over a tenth of it
 * is answered by graphql-js without being compiled and kept; every answer is the same either way.
 */
import { createRequire } from 'node:module';
import type * as graphql from 'graphql';
import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createCompiledExecutor } from '../../src/execution/compiled-executor.ts';

/** Built by the CommonJS copy of graphql-js, as the gateway's schema is under vitest. */
const schema = (createRequire(import.meta.url)('graphql') as typeof graphql).buildSchema(
  'type Query { hello(n: Int): String }',
);
const hello = schema.getQueryType()?.getFields().hello;
if (hello !== undefined) hello.resolve = (_source, { n }: { n?: number }) => `hello ${String(n ?? 0)}`;

function requestOf(source: string, hash: string) {
  const document = parse(source);
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  return {
    source,
    queryHash: hash,
    document,
    operation,
    request: { operationName: undefined, variables: {} },
    context: {},
  } as unknown as Parameters<ReturnType<typeof createCompiledExecutor>>[0];
}

describe('the compiled documents', () => {
  it('should keep no more than their bound, however many distinct documents come', async () => {
    const maxBytes = 20 * 16 * 1024;
    const execute = createCompiledExecutor(schema, { maxBytes });
    for (let i = 0; i < 200; i++) {
      const source = `{ a: hello(n: ${String(i)}) }`;
      const result = await execute(requestOf(source, `h${String(i)}`));
      expect(result).toEqual({ data: { a: `hello ${String(i)}` } });
      expect(execute.heldBytes()).toBeLessThanOrEqual(maxBytes);
    }
    expect(execute.heldBytes()).toBeGreaterThan(0);
  });

  it('should answer a document over a tenth of the bound by graphql-js, keeping next to nothing', async () => {
    const execute = createCompiledExecutor(schema, { maxBytes: 20 * 16 * 1024 });
    const aliases = Array.from({ length: 40 }, (_, i) => `a${String(i)}: hello(n: ${String(i)})`).join(' ');
    const result = await execute(requestOf(`{ ${aliases} }`, 'big'));
    expect((result as { data: Record<string, string> }).data.a39).toBe('hello 39');
    expect(execute.heldBytes()).toBeLessThan(1024);
  });
});
