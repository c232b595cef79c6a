/**
 * How the long-running helper processes (the emulator, the bench's emulator and peers) end: on SIGINT or
 * SIGTERM they close what they serve, then exit 0, or 1 when closing failed.
 */

/** Calls `close` once on the first SIGINT or SIGTERM, then exits with 0 (closed) or 1 (closing failed). */
export function closeOnSignals(close: () => Promise<unknown>): void {
  const stop = (): void => {
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
