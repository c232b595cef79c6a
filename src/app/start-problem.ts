/**
 * Start-up failures: a message that is already the one line to print (`src/main.ts` prints it and exits 1),
 * and the line for a busy port, naming the setting that moves it, so a busy port never leaves a new user
 * guessing which of the two servers of `npm start` collided, or how to move it.
 */

/** A start-up failure whose message is already the one line to print. */
export class StartProblem extends Error {
  override readonly name = 'StartProblem';
}

/** Whether `error` is Node's "address already in use" from `listen`. */
export function isAddressInUse(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'EADDRINUSE';
}

/**
 * The start-up line for a busy port.
 * @param what - the server that could not listen, e.g. `gateway` or `embedded emulator`.
 * @param setting - the environment variable that chooses its port.
 */
export function addressInUseLine(what: string, host: string, port: number, setting: string): string {
  return `cannot start the ${what}: ${host}:${port} is already in use; set ${setting} to a free port (or stop what holds it)`;
}
