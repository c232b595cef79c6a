/**
 * The bench's command line (`node:util` `parseArgs`): the same options as before, clear errors, and the
 * `--features` mode's defaults.
 */
import { describe, expect, it } from 'vitest';
import { parseBenchArgs, USAGE } from '../args.ts';
import { WORKLOAD_IDS } from '../workloads.ts';

describe('bench arguments', () => {
  it('should default to every workload, three rounds of 3 s and a 500 req/s fixed-rate run', () => {
    expect(parseBenchArgs([])).toEqual({
      quick: false,
      peers: undefined,
      workloads: [...WORKLOAD_IDS],
      rounds: 3,
      roundSeconds: 3,
      warmupSeconds: 1,
      firstWarmupSeconds: 5,
      fixedRate: 500,
      fixedRateRounds: 3,
      fixedRateSeconds: 3,
      gc: false,
      writeResultsMd: false,
      baseline: undefined,
      features: false,
      help: false,
    });
  });

  it('should take lists in any case and answer them in table order', () => {
    const options = parseBenchArgs(['--peers=p4,f1,P1,p4-log', '--workloads=w2h,W1']);
    expect(options.peers).toEqual(['P1', 'F1', 'P4', 'P4-log']);
    expect(options.workloads).toEqual(['W1', 'W2H']);
  });

  it('should shorten the timings with --quick unless they are given', () => {
    const options = parseBenchArgs(['--quick', '--duration=2', '--rate=0']);
    expect(options).toMatchObject({
      quick: true,
      roundSeconds: 2,
      warmupSeconds: 0.25,
      fixedRate: undefined,
    });
  });

  it('should take the GC mode and the fixed-rate rounds and duration, defaulting to the rounds', () => {
    expect(parseBenchArgs(['--gc', '--rounds=5', '--duration=0.5'])).toMatchObject({
      gc: true,
      fixedRateRounds: 5,
      // A p99 needs a few hundred requests: at least a second.
      fixedRateSeconds: 1,
    });
    expect(parseBenchArgs(['--rate-rounds=6', '--rate-duration=10'])).toMatchObject({
      rounds: 3,
      fixedRateRounds: 6,
      fixedRateSeconds: 10,
    });
  });

  it('should default --features to W1, five rounds and no fixed-rate run', () => {
    expect(parseBenchArgs(['--features'])).toMatchObject({
      features: true,
      workloads: ['W1'],
      rounds: 5,
      fixedRate: undefined,
    });
  });

  it.each([
    [['--peers=P9'], /--peers: unknown P9/],
    [['--rounds=-1'], /--rounds: expected a number ≥ 0, got -1/],
    [['--rate='], /--rate: expected a number ≥ 0/],
    [['--rate-rounds=x'], /--rate-rounds: expected a number ≥ 0, got x/],
    [['--rate-duration=-2'], /--rate-duration: expected a number ≥ 0, got -2/],
    [['--gc=yes'], /--gc/],
    [['--gc', '--features'], /--gc: not with --features/],
    [['--speed=3'], /Unknown option '--speed'/],
    [['--quick=yes'], /--quick/],
    [['W1'], /positional/],
  ])('should refuse %j', (argv, message) => {
    expect(() => parseBenchArgs(argv)).toThrow(message);
  });

  it('should show the usage with an unknown option', () => {
    expect(() => parseBenchArgs(['--nope'])).toThrow(USAGE);
  });
});
