/**
 * Preloaded (`--import`) into a peer that `profile.ts` profiles: SIGTERM ends the process with a normal
 * exit, so Node writes the `--cpu-prof` profile (a peer killed by the signal's default action writes none).
 */
process.once('SIGTERM', () => {
  process.exit(0);
});
