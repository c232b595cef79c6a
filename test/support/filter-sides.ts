/**
 * Differential filter tests (`test/filters/find-anchoring.test.ts`, `matches-case.test.ts`): the same records
 * saved into emulators of different dialects, read through the real client and the real filter compiler, so
 * that one dialect's answers can be held to another's.
 */
import { afterAll } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../emulator/index.ts';
import { compileCriteria, type FilterCondition } from '../../src/filters/compile-criteria.ts';
import type {
  Criterion,
  MatchesMode,
  UpstreamClient,
  UpstreamClientOptions,
  UpstreamCredentials,
} from '../../src/upstream/client/types.ts';
import { clientAt } from './client-for.ts';
import { defaultPatternGuard } from './pattern-guard.ts';
import { demoCredentials } from './demo-credentials.ts';

/** One emulator holding the records, and a client logged in to it. */
export interface FilterSide {
  emulator: RunningEmulator;
  client: UpstreamClient;
  credentials: UpstreamCredentials;
}

/**
 * Starts an emulator of `upstream`'s dialect serving `type`, logs a client of `client`'s settings in, and saves
 * one record per value (`{key, text, nested: {text}}`, `key` its index).
 */
async function startFilterSide(
  type: string,
  values: readonly string[],
  upstream: EmulatorOptions,
  client: Partial<UpstreamClientOptions>,
): Promise<FilterSide> {
  const emulator = await startEmulator({ port: 0, ...upstream, objectTypes: [type] });
  const upstreamClient = clientAt(emulator.url, client);
  const { token } = await upstreamClient.loginJson('demo', 'demo-password');
  const credentials = demoCredentials('demo', token);
  for (const [key, value] of values.entries()) {
    await upstreamClient.save(credentials, type, { key, text: value, nested: { text: value } });
  }
  return { emulator, client: upstreamClient, credentials };
}

/**
 * The sides of a file's tests, each holding one record of `type` per value of `values`: `start` one in a
 * dialect (closed, client and emulator, after the file's tests), and the `keys` of the records `criteria`
 * select on a side, sorted.
 */
export function useFilterSides(
  type: string,
  values: readonly string[],
): {
  start: (upstream: EmulatorOptions, client: Partial<UpstreamClientOptions>) => Promise<FilterSide>;
  keys: (side: FilterSide, criteria: Criterion[]) => Promise<number[]>;
} {
  const started: FilterSide[] = [];
  afterAll(async () => {
    for (const side of started.splice(0)) {
      await side.client.close();
      await side.emulator.close();
    }
  });
  return {
    start: async (upstream, client) => {
      const side = await startFilterSide(type, values, upstream, client);
      started.push(side);
      return side;
    },
    keys: async (side, criteria) => {
      const page = await side.client.getAll(side.credentials, type, criteria, 100, 0);
      return page.records.map((r) => Number(r.key)).sort((a, b) => a - b);
    },
  };
}

const guard = defaultPatternGuard();

/** `condition` compiled as the `filter` argument of the generic API, for `matchesMode`. */
export function compileFilter(condition: Omit<FilterCondition, 'at'>, matchesMode: MatchesMode) {
  const at = { value: 'filter.value', values: 'filter.values', caseInsensitive: 'filter.caseInsensitive' };
  return compileCriteria([{ ...condition, at }], { matchesMode, guard, argumentName: 'filter' });
}
