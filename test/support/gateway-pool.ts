/**
 * An emulator and as many gateways in front of it as a block's tests ask for (replicas, different
 * settings), all closed after the block: what the login-protection and session tests need.
 */
import { afterAll, beforeAll } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../emulator/index.ts';
import { startGateway, type TestGateway } from './gateway-harness.ts';
import { lateBound } from './late-bound.ts';

/** What {@link useGatewayPool} hands a test file. */
export interface GatewayPool {
  emulator: RunningEmulator;
  /** Starts one more gateway with the pool's `env` and then this `env`. */
  gateway: (env?: Record<string, string>) => Promise<TestGateway>;
}

/** Options of {@link useGatewayPool}. */
export interface GatewayPoolOptions {
  /** Settings of every gateway of the pool. */
  env?: Record<string, string>;
  emulator?: EmulatorOptions;
}

/** Starts the emulator before the calling block's tests; closes it and every gateway after them. */
export function useGatewayPool(options: GatewayPoolOptions = {}): GatewayPool {
  const [emulator, setEmulator] = lateBound<RunningEmulator>('the emulator');
  const gateways: TestGateway[] = [];
  let running: RunningEmulator | undefined;
  beforeAll(async () => {
    running = await startEmulator({ port: 0, ...options.emulator });
    setEmulator(running);
  });
  afterAll(async () => {
    await Promise.all(gateways.splice(0).map((g) => g.close()));
    await running?.close();
  });
  return {
    emulator,
    gateway: async (env = {}) => {
      const started = await startGateway({ upstreamUrl: emulator.url, env: { ...options.env, ...env } });
      gateways.push(started);
      return started;
    },
  };
}
