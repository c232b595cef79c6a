/**
 * The operation names that get their own metric series. A name is the client's choice, so a label set keyed
 * by it is a shared resource any caller could fill: the first junk names seen would take every slot and
 * push the real operations into `other`. Here the server decides which names count, from who sent them:
 *
 * - a name of a registered trusted document counts always (the manifests are the operator's, and bound it);
 * - otherwise a name counts only once an operation of that name passed validation for a caller the upstream
 *   accepted (a session, or the login that opened one), and each such user may bring at most
 *   {@link MAX_OPERATION_NAMES_PER_USER} of the {@link MAX_OPERATION_NAMES} names. Anonymous callers bring
 *   none: their unknown names count as `other`, whatever they send.
 */

/** Distinct operation names learned from users' operations (trusted documents' names come on top). */
export const MAX_OPERATION_NAMES = 200;

/** The share of {@link MAX_OPERATION_NAMES} one user's operations may fill. */
export const MAX_OPERATION_NAMES_PER_USER = 20;

/** The label of operations with no name, and of those whose name never counted. */
const ANONYMOUS_OPERATION = 'anonymous';
const OTHER_OPERATION = 'other';

/** Who vouches for a name: a trusted document, or a user the upstream accepted (any stable key of it). */
export type OperationNameSource = { trusted: true } | { user: string };

/** See {@link createOperationNames}. */
export interface OperationNames {
  /** Lets `name` have its own series, if it is a plausible name and `source` still has room. */
  admit(name: string, source: OperationNameSource): void;
  /** The label of an operation named `name`: its name once admitted, else `other` (`anonymous` unnamed). */
  label(name: string | undefined): string;
}

/** A GraphQL name, and short: labels of a few dozen characters at most. */
const OPERATION_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Options of {@link createOperationNames}; defaults as the constants above (tests shrink them). */
export interface OperationNamesOptions {
  maxNames?: number;
  maxNamesPerUser?: number;
}

/** The admitted names of one process (one gateway's metrics). */
export function createOperationNames(options: OperationNamesOptions = {}): OperationNames {
  const maxNames = options.maxNames ?? MAX_OPERATION_NAMES;
  const maxPerUser = options.maxNamesPerUser ?? MAX_OPERATION_NAMES_PER_USER;
  const trusted = new Set<string>();
  const learned = new Set<string>();
  // Only users who brought a name are kept, so this holds at most `maxNames` entries.
  const namesPerUser = new Map<string, number>();
  return {
    admit(name, source) {
      if (!OPERATION_NAME.test(name) || trusted.has(name) || learned.has(name)) return;
      // `anonymous` and `other` are the server's own labels: a name may not pose as either.
      if (name === ANONYMOUS_OPERATION || name === OTHER_OPERATION) return;
      if ('trusted' in source) {
        trusted.add(name);
        return;
      }
      const brought = namesPerUser.get(source.user) ?? 0;
      if (learned.size >= maxNames || brought >= maxPerUser) return;
      learned.add(name);
      namesPerUser.set(source.user, brought + 1);
    },
    label(name) {
      if (name === undefined || name === '') return ANONYMOUS_OPERATION;
      return trusted.has(name) || learned.has(name) ? name : OTHER_OPERATION;
    },
  };
}
