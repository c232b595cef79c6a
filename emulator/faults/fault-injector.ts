import { z } from 'zod';
import type { WireOperation } from '../../src/upstream/client/wire.ts';
import { FAULT_MODES, WIRE_OPERATIONS, type FaultMode, type FaultOptions } from '../emulator-options.ts';

/** Validates fault options from tests, the control endpoint and the environment. */
export const faultOptionsSchema = z
  .strictObject({
    every: z.int().min(0).optional(),
    mode: z.enum(FAULT_MODES).optional(),
    operations: z.array(z.enum(WIRE_OPERATIONS)).optional(),
  })
  .refine((faults) => faults.every === undefined || faults.every === 0 || faults.mode !== undefined, {
    message: 'mode is required when every is above 0',
    path: ['mode'],
  });

/** Decides which calls misbehave. */
export interface FaultInjector {
  /** Replaces the settings (validated here: they may come off the network) and restarts the count. */
  set(faults: unknown): void;
  current(): FaultOptions;
  /** Counts a call of `operation` and answers the fault it must suffer, if any. */
  next(operation: WireOperation): FaultMode | undefined;
}

/** Builds an injector with the given initial settings. */
export function createFaultInjector(initial: FaultOptions | undefined): FaultInjector {
  let faults: FaultOptions = {};
  let calls = 0;
  const injector: FaultInjector = {
    set(next) {
      const parsed = faultOptionsSchema.safeParse(next ?? {});
      if (!parsed.success) throw new Error(`invalid fault options: ${z.prettifyError(parsed.error)}`);
      faults = parsed.data;
      calls = 0;
    },
    current: () => faults,
    next(operation) {
      const { every, mode, operations } = faults;
      if (every === undefined || every === 0 || mode === undefined) return undefined;
      if (operations !== undefined && !operations.includes(operation)) return undefined;
      calls += 1;
      return calls % every === 0 ? mode : undefined;
    },
  };
  injector.set(initial);
  return injector;
}
