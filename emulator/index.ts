/**
 * The upstream emulator: a faithful, self-contained implementation of the JSONP object data service of
 * `docs/upstream-contract.md`, with the decisions of `docs/design.md`. It is the gateway's embedded default upstream, the test
 * double of every test and the target of the benchmarks. It shares only wire types with `src/upstream/`.
 */
export { DEMO, EMULATOR_USERS, type EmulatorUser } from './identity/demo-users.ts';
export {
  FAULT_MODES,
  WIRE_OPERATIONS,
  type EmulatorOptions,
  type FaultMode,
  type FaultOptions,
  type RunningEmulator,
} from './emulator-options.ts';
export {
  EmulatorConfigError,
  readEmulatorConfig,
  readObjectTypes,
  type Environment,
} from './emulator-config.ts';
export { DEMO_SEED_COUNTS, OBJECT_NAMES } from './store/seed-data.ts';
export { startEmulator } from './start-emulator.ts';
