/** A setting that failed validation; `message` is the one line to print. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
