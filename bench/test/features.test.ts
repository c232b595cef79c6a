/**
 * The `--features` mode: every module its table swaps exists where the table says (a move in `src/` must
 * be followed here), and the cost is the median of differences measured in the same round.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { featureCosts } from '../features/feature-costs.ts';
import { featureOf, FEATURE_IDS, NEUTRALISED_MODULES, redirectsOf } from '../features/feature-peers.ts';
import type { RoundMeasure } from '../summary.ts';

const round = (microsPerRequest: number): RoundMeasure => ({
  requests: 1000,
  requestsPerSecond: 1000,
  p50Millis: 1,
  p99Millis: 2,
  upstreamCallsPerRequest: 1,
  cpuSecondsPer1000: microsPerRequest / 1000,
  peakRssBytes: 0,
  non2xx: 0,
  socketErrors: 0,
  mismatches: 0,
});

describe('feature-cost mode', () => {
  it.each(Object.entries(NEUTRALISED_MODULES))(
    'should find the modules it swaps and their stand-ins (%s)',
    (_feature, table) => {
      for (const [from, to] of Object.entries(table)) {
        if (from.startsWith('src/'))
          expect(
            existsSync(new URL(`../../${from}`, import.meta.url)),
            `${from} is gone: fix NEUTRALISED_MODULES`,
          ).toBe(true);
        expect(existsSync(new URL(`../features/stand-ins/${to}`, import.meta.url)), to).toBe(true);
      }
    },
  );

  // The hook swaps the module the table names; the stand-in re-exports the module its import names. When
  // the two part (a file of src/ moved and only one of them followed), the copy would silently measure P4.
  it.each(Object.entries(NEUTRALISED_MODULES))(
    'should re-export from each stand-in the very module the table swaps (%s)',
    (feature, table) => {
      const redirects = redirectsOf(feature as keyof typeof NEUTRALISED_MODULES);
      for (const [swapped, standInUrl] of Object.entries(redirects)) {
        const source = readFileSync(new URL(standInUrl), 'utf8');
        const reExported = /^export \* from '([^']+)';$/m.exec(source)?.[1];
        expect(reExported, `${standInUrl} re-exports nothing`).toBeDefined();
        const real = reExported?.startsWith('.') === true ? new URL(reExported, standInUrl).href : reExported;
        expect(real, `NEUTRALISED_MODULES.${feature} and its stand-in name different modules`).toBe(swapped);
      }
      expect(Object.keys(redirects)).toHaveLength(Object.keys(table).length);
    },
  );

  it('should swap every module of every feature when all are off', () => {
    const all = Object.keys(redirectsOf('all'));
    const each = FEATURE_IDS.filter((id) => id !== 'all').flatMap((id) => Object.keys(redirectsOf(id)));
    expect(all.sort()).toEqual(each.sort());
    expect(all).toContain('@as-integrations/fastify');
    for (const url of Object.values(redirectsOf('all'))) expect(existsSync(fileURLToPath(url))).toBe(true);
  });

  it('should tell the feature of a peer id', () => {
    expect(featureOf('P4-log')).toBe('log');
    expect(featureOf('P4')).toBeUndefined();
    expect(featureOf('P4-nothing')).toBeUndefined();
  });

  it('should take the median of the paired differences, not the difference of medians', () => {
    const [cost] = featureCosts([
      {
        partner: 'P4-log',
        workload: 'W1',
        // A slow round hits both sides: the differences are 40, 50 and 60 µs.
        full: [round(300), round(600), round(350)],
        partnerRounds: [round(260), round(550), round(290)],
      },
    ]);
    expect(cost).toMatchObject({ costMicros: 50, fullMicros: 350, partnerMicros: 290, rounds: 3 });
    expect(cost?.rangeMicros).toEqual([40, 60]);
  });
});
