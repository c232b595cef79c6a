/**
 * Decoding JSONP answers without executing them.
 *
 * The upstream wraps its JSON in a caller-named function. Real deployments differ in the details (a
 * trailing `;`, a BOM, a `/**\/` guard against content sniffing, jQuery's `typeof cb === 'function' && …`
 * guard, or plain JSON from a proxy that stripped the wrapper), so this module accepts exactly those forms
 * (docs/design.md, "JSONP wrapper forms") and nothing else. It is a small scanner: it checks the wrapper by hand and
 * hands only the slice between the outer parentheses to `JSON.parse` (`parseExactJson`: numbers keep their
 * digits). Never `eval`.
 *
 * `JSON.parse` defines every key, `__proto__` included, as an own data property, so a hostile body cannot
 * reach `Object.prototype` here.
 */
import { getRandomValues } from 'node:crypto';
import { UpstreamError } from '../../../errors/upstream-error.ts';
import { parseExactJson } from '../../dialect/exact-json.ts';

/** What a callback name we send, and require back, looks like. */
export const CALLBACK_NAME_PATTERN = /^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/;

/**
 * Returns a source of fresh callback names: `cb_`, 64 random bits drawn once (base 36), `_`, and a counter.
 * A fresh name per call means an answer meant for another request (a confused cache or proxy) is detected,
 * not misread; the random part keeps two clients (or two replicas) apart. Drawing random bits for every call
 * cost a system call per upstream request (about 5 µs, 2 % of a small GraphQL request's CPU), the counter
 * costs nothing and is just as fresh.
 */
export function createCallbackNames(): () => string {
  const [high = 0, low = 0] = getRandomValues(new Uint32Array(2));
  const prefix = `cb_${high.toString(36)}${low.toString(36)}_`;
  let counter = 0;
  return () => {
    // Wraps long before the name could outgrow the 64 characters the pattern allows.
    counter = counter >= Number.MAX_SAFE_INTEGER ? 0 : counter + 1;
    return `${prefix}${counter.toString(36)}`;
  };
}

/**
 * Decodes a JSONP (or bare JSON) body wrapped in `expectedCallback`.
 *
 * @param text - the response body, already decoded as UTF-8
 * @param expectedCallback - the name sent in `callback`; any other name is rejected
 * @param operation - named in the error, for logs
 * @throws UpstreamError of kind `bad_response` for anything that is not one of the accepted forms
 */
export function decodeJsonp(text: string, expectedCallback: string, operation = 'decode'): unknown {
  return decode(text, expectedCallback, operation);
}

/**
 * Decodes a JSON body that some upstreams wrap in a callback anyway (the logins): bare JSON, or any of the
 * accepted wrapper forms with any valid callback name.
 */
export function decodeJsonOrJsonp(text: string, operation = 'decode'): unknown {
  return decode(text, undefined, operation);
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const IDENTIFIER_START = /[A-Za-z_$]/;
const IDENTIFIER_PART = /[A-Za-z0-9_$]/;

/** A cursor over the body. Error texts never quote the body: it may hold a token (the login answers). */
class Scanner {
  readonly text: string;
  pos: number;
  readonly operation: string;

  constructor(text: string, operation: string) {
    this.text = text;
    this.pos = 0;
    this.operation = operation;
  }

  fail(expected: string): never {
    throw new UpstreamError('bad_response', `body is not JSONP: expected ${expected} at offset ${this.pos}`, {
      operation: this.operation,
    });
  }

  skipWhitespace(): number {
    const start = this.pos;
    while (this.pos < this.text.length && WHITESPACE.has(this.text.charAt(this.pos))) this.pos++;
    return this.pos - start;
  }

  /** Consumes `literal` if it is next; whitespace before it is skipped. */
  accept(literal: string): boolean {
    const saved = this.pos;
    this.skipWhitespace();
    if (this.text.startsWith(literal, this.pos)) {
      this.pos += literal.length;
      return true;
    }
    this.pos = saved;
    return false;
  }

  expect(literal: string): void {
    if (!this.accept(literal)) this.fail(`'${literal}'`);
  }

  /** Reads an identifier if one starts here; returns `undefined` (and consumes nothing) otherwise. */
  identifier(): string | undefined {
    const start = this.pos;
    if (!IDENTIFIER_START.test(this.text.charAt(start))) return undefined;
    let end = start + 1;
    while (end < this.text.length && IDENTIFIER_PART.test(this.text.charAt(end))) end++;
    this.pos = end;
    return this.text.slice(start, end);
  }
}

function decode(text: string, expectedCallback: string | undefined, operation: string): unknown {
  const scanner = new Scanner(text, operation);
  if (text.startsWith('\uFEFF')) scanner.pos = 1;
  scanner.skipWhitespace();
  // `/**/` is prepended by many JSONP servers so a body can never be sniffed as something else (Rosetta Flash).
  scanner.accept('/**/');
  scanner.skipWhitespace();
  const bodyStart = scanner.pos;
  const name = scanner.identifier();
  if (name === 'typeof' && scanner.skipWhitespace() > 0) {
    const guarded = scanner.identifier() ?? scanner.fail('a callback name after typeof');
    checkName(scanner, guarded, expectedCallback);
    if (!scanner.accept('===')) scanner.expect('==');
    if (!scanner.accept("'function'")) scanner.expect('"function"');
    scanner.expect('&&');
    scanner.skipWhitespace();
    const called = scanner.identifier() ?? scanner.fail('the guarded call');
    if (called !== guarded) scanner.fail('the same name in the guard and the call');
    return parseCallArguments(scanner);
  }
  if (name !== undefined && scanner.accept('(')) {
    checkName(scanner, name, expectedCallback);
    scanner.pos--;
    return parseCallArguments(scanner);
  }
  scanner.pos = bodyStart;
  return parseJson(scanner, text.slice(bodyStart));
}

function checkName(scanner: Scanner, name: string, expectedCallback: string | undefined): void {
  if (expectedCallback === undefined ? !CALLBACK_NAME_PATTERN.test(name) : name !== expectedCallback) {
    // The received name is not quoted: it is upstream-controlled text of any length.
    scanner.fail('the callback name that was sent');
  }
}

/** At `(`: the rest must be `(JSON)` with an optional `;` and whitespace after it. */
function parseCallArguments(scanner: Scanner): unknown {
  scanner.expect('(');
  const open = scanner.pos;
  let end = scanner.text.length;
  while (end > open && WHITESPACE.has(scanner.text.charAt(end - 1))) end--;
  if (scanner.text.charAt(end - 1) === ';') end--;
  while (end > open && WHITESPACE.has(scanner.text.charAt(end - 1))) end--;
  if (end <= open || scanner.text.charAt(end - 1) !== ')') {
    scanner.pos = end;
    scanner.fail("')' closing the callback call");
  }
  return parseJson(scanner, scanner.text.slice(open, end - 1));
}

function parseJson(scanner: Scanner, slice: string): unknown {
  try {
    // Numbers a double would round are kept with their digits (`dialect/exact-json.ts`).
    return parseExactJson(slice);
  } catch {
    // JSON.parse's own message quotes the input, which may hold a token: it is dropped on purpose.
    return scanner.fail('a JSON value');
  }
}
