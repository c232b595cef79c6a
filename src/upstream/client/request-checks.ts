/**
 * What the upstream cannot take, refused before anything is sent. A servlet container answers 404, 400 or
 * 431 to an empty path segment, an encoded slash or an over-long request line; a deep or non-JSON value
 * breaks our own serialisation or is silently changed on the way (`1e400` becomes `null`,
 * `12345678901234567890` loses digits). Each of these is the caller's mistake, so each is an
 * `invalid_input` error that says what to change, and none of them costs the upstream a request or counts
 * against its circuit breaker.
 */
import { invalidInput } from '../../errors/upstream-error.ts';

/** Limits of {@link createRequestChecks}. */
export interface RequestLimits {
  /** Longest id, in UTF-16 units. `UPSTREAM_MAX_ID_LENGTH`. */
  maxIdLength: number;
  /**
   * Longest request line plus headers the upstream accepts, in bytes. `UPSTREAM_MAX_URL_BYTES`, Tomcat's
   * `maxHttpHeaderSize`; the update's fields travel in the query string, so they count too.
   */
  maxUrlBytes: number;
  /** Deepest nesting of objects and arrays in written data. `UPSTREAM_MAX_DATA_DEPTH`. */
  maxDataDepth: number;
  /** Largest written data, as JSON, in bytes. `UPSTREAM_MAX_DATA_BYTES`. */
  maxDataBytes: number;
}

/**
 * Bytes of the request line and headers besides the request target: method, version, host, accept,
 * content type and length. Generous, so an upstream with a few more headers of its own still fits.
 */
export const HEADER_ALLOWANCE_BYTES = 512;

/** Characters no servlet container takes in a path segment, even percent-encoded (Tomcat answers 400). */
const UNSAFE_IN_PATH = /[/\\\p{Cc}]/u;

/**
 * A fully qualified class-style name as Java writes one: identifiers (letters, digits, `_`, `$`, not
 * starting with a digit) joined by dots. Anything else can only be a caller's mistake, and a Java service
 * that looks the name up (`Class.forName`) may answer it with a 500 that would read as ill health.
 */
const OBJECT_NAME = /^[\p{L}_$][\p{L}\p{N}_$]*(?:\.[\p{L}_$][\p{L}\p{N}_$]*)*$/u;
const MAX_OBJECT_NAME_LENGTH = 256;

/** The checks, bound to limits. */
export interface RequestChecks {
  readonly limits: Readonly<RequestLimits>;
  /** An object type name the upstream can look up: a Java-style qualified name of at most 256 characters. */
  objectName(operation: string, objectName: string): void;
  /** An id the upstream can address: not empty, not too long; `inPath` ids also path-safe. */
  id(operation: string, id: string, argument: string, inPath: boolean): void;
  /** Data that survives JSON unchanged, within the depth and size limits. Answers its JSON text. */
  data(operation: string, data: Record<string, unknown>, argument: string): string;
  /**
   * A request target (path and query) that fits the upstream's request-line limit, with `cookieLength`
   * characters of a session cookie among the headers (a servlet container counts them in the same limit).
   */
  target(operation: string, target: string, origin: string, cookieLength?: number): void;
  /** The id a save names in `data._id`, if any: a string, as the upstream requires. */
  saveId(operation: string, data: Record<string, unknown>): void;
}

/** Creates the checks for `limits` (the settings, taken as given). */
export function createRequestChecks(limits: RequestLimits): RequestChecks {
  const bound: RequestLimits = { ...limits };
  return {
    limits: bound,
    objectName(operation, objectName) {
      if (objectName.length <= MAX_OBJECT_NAME_LENGTH && OBJECT_NAME.test(objectName)) return;
      throw invalidInput(
        operation,
        `"objectName" must be a qualified class-style name such as com.example.LoanType (identifiers joined by dots, at most ${MAX_OBJECT_NAME_LENGTH} characters).`,
        'objectName',
      );
    },
    id(operation, id, argument, inPath) {
      if (id === '') throw invalidInput(operation, `"${argument}" must not be empty.`, argument);
      if (!id.isWellFormed()) {
        throw invalidInput(
          operation,
          `"${argument}" holds a lone surrogate (not well-formed Unicode).`,
          argument,
        );
      }
      if (id.length > bound.maxIdLength) {
        throw invalidInput(
          operation,
          `"${argument}" is ${id.length} characters long; ids have at most ${bound.maxIdLength}.`,
          argument,
        );
      }
      if (inPath && (id === '.' || id === '..' || UNSAFE_IN_PATH.test(id))) {
        throw invalidInput(
          operation,
          `"${argument}" cannot be addressed in the upstream's URL path: an id of "." or "..", or one holding "/", "\\" or a control character, is refused by the upstream's web server.`,
          argument,
        );
      }
    },
    data(operation, data, argument) {
      checkValue(operation, data, argument, 1, bound.maxDataDepth);
      const json = JSON.stringify(data);
      const bytes = Buffer.byteLength(json);
      if (bytes > bound.maxDataBytes) {
        throw invalidInput(
          operation,
          `"${argument}" is ${bytes} bytes as JSON; the upstream takes at most ${bound.maxDataBytes}.`,
          argument,
        );
      }
      return json;
    },
    saveId(operation, data) {
      if (!Object.hasOwn(data, '_id')) return;
      const id: unknown = data._id;
      if (typeof id !== 'string') {
        throw invalidInput(
          operation,
          '"data._id" must be a string: the id of the object to update (leave it out to create one).',
          'data._id',
        );
      }
      this.id(operation, id, 'data._id', false);
    },
    target(operation, target, origin, cookieLength = 0) {
      const bytes = target.length + origin.length + HEADER_ALLOWANCE_BYTES + cookieLength;
      if (bytes <= bound.maxUrlBytes) return;
      const what =
        operation === 'update'
          ? 'the update travels in the upstream URL\'s query string: change fewer or shorter fields per update, or write them with saveObject and "_id" in its data (a request body)'
          : operation === 'metadata'
            ? 'the id travels in the upstream URL: use a shorter id'
            : 'the filter travels in the upstream URL: use fewer or shorter conditions or field names';
      throw invalidInput(
        operation,
        `The upstream request would be about ${bytes} bytes, over the upstream's ${bound.maxUrlBytes}-byte limit (UPSTREAM_MAX_URL_BYTES); ${what}.`,
      );
    },
  };
}

/** Walks `value` once: depth, and numbers JSON cannot carry exactly. Stops at the first problem. */
function checkValue(operation: string, value: unknown, path: string, depth: number, maxDepth: number): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) {
      throw invalidInput(
        operation,
        `${path} is not a finite number; JSON cannot carry it (it would be stored as null).`,
        path,
      );
    }
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
      throw invalidInput(
        operation,
        `${path} is an integer beyond 2^53, which loses digits as a JSON number; send it as a string.`,
        path,
      );
    }
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (depth > maxDepth) {
    throw invalidInput(
      operation,
      `${path} nests deeper than ${maxDepth} levels of objects and arrays.`,
      path,
    );
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++)
      checkValue(operation, value[i], `${path}.${i}`, depth + 1, maxDepth);
    return;
  }
  for (const key of Object.keys(value)) {
    checkValue(operation, (value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1, maxDepth);
  }
}
