/**
 * A filter the gateway will not send: the caller's mistake, said in words the caller can act on. Framework
 * free; the resolvers turn it into `BAD_USER_INPUT` naming {@link FilterError.argumentName}.
 */
export class FilterError extends Error {
  override readonly name = 'FilterError';
  /** The field argument the filter came in (`filter`, `where`). */
  readonly argumentName: string;
  /** Not the caller's mistake: the pattern guard was too busy to check a new pattern; a retry may pass. */
  readonly busy: boolean;

  /**
   * @param message What is wrong and what to change, naming the input by its path (`filter.criteria[0]`).
   * @param argumentName The field argument the filter came in (`filter`, `where`).
   * @param busy See {@link FilterError.busy}.
   */
  constructor(message: string, argumentName: string, busy = false) {
    super(message);
    this.argumentName = argumentName;
    this.busy = busy;
  }
}
