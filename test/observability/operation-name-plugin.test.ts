/**
 * The operation-name plugin keeps no per-request state, so it hands every request the same listener
 * instead of allocating one per request.
 */
import type { BaseContext, GraphQLRequestContext } from '@apollo/server';
import { expect, it } from 'vitest';
import { createOperationNamePlugin } from '../../src/observability/operation-name-plugin.ts';

it('should give every request the one shared listener', async () => {
  const plugin = createOperationNamePlugin<BaseContext>({
    admit: () => undefined,
    userOf: () => undefined,
    userOfToken: () => Promise.resolve(undefined),
  });
  const request = {} as GraphQLRequestContext<BaseContext>;
  const first = await plugin.requestDidStart?.(request);
  const second = await plugin.requestDidStart?.(request);
  expect(first).toBeDefined();
  expect(second).toBe(first);
});
