/**
 * What `run` throws; a test failure when it throws nothing.
 * For the assertions that look into an error's fields.
 */
export function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}
