/**
 * The blame table (`src/errors/blame.ts`) is the one place that decides whose fault an error is: every code
 * of the catalogue has a row, every upstream failure kind answers a code of it, and `formatError`, the HTTP
 * error bodies, `UpstreamError.blame` and the request log's level all follow it. No other source file
 * writes a blame or builds a `GraphQLError`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  ERROR_TABLE,
  LOG_LEVEL_OF_BLAME,
  UPSTREAM_KIND_CODE,
  blameOfCode,
  type Blame,
  type UpstreamErrorKind,
} from '../../src/errors/blame.ts';
import { ErrorCode } from '../../src/errors/error-codes.ts';
import { createErrorFormatter } from '../../src/errors/format-error.ts';
import { fromUpstreamError } from '../../src/errors/from-upstream-error.ts';
import { httpErrorBody } from '../../src/errors/http-error.ts';
import { UpstreamError, blameOf } from '../../src/errors/upstream-error.ts';
import { levelOf } from '../../src/observability/request-log.ts';

const BLAMES: readonly Blame[] = ['caller', 'upstream_refusal', 'upstream_health', 'gateway'];
const CODES = Object.values(ErrorCode);
const KINDS = Object.keys(UPSTREAM_KIND_CODE) as UpstreamErrorKind[];
const format = createErrorFormatter({ production: true });

describe('the blame table', () => {
  it('should give every code of the catalogue a blame, and hold no other code', () => {
    expect(Object.keys(ERROR_TABLE).sort()).toEqual([...CODES].sort());
    for (const code of CODES) expect(BLAMES).toContain(blameOfCode(code));
  });

  it('should blame an Apollo Server code (not ours) on the caller', () => {
    expect(blameOfCode('GRAPHQL_VALIDATION_FAILED')).toBe('caller');
    expect(blameOfCode('GRAPHQL_PARSE_FAILED')).toBe('caller');
  });

  it.each([
    [ErrorCode.UPSTREAM_ERROR, undefined, 'upstream_refusal'],
    [ErrorCode.UPSTREAM_ERROR, 'request_rejected', 'gateway'],
    [ErrorCode.TOO_MANY_REQUESTS, 'session_overloaded', 'caller'],
    [ErrorCode.TOO_MANY_REQUESTS, 'pattern_guard_busy', 'gateway'],
    [ErrorCode.GATEWAY_BUSY, 'connections_per_address', 'caller'],
    [ErrorCode.GATEWAY_BUSY, 'body_bytes', 'gateway'],
    [ErrorCode.UPSTREAM_UNAVAILABLE, 'circuit_open', 'upstream_health'],
    [ErrorCode.BAD_USER_INPUT, 'inexact_number', 'caller'],
  ])('should blame %s with reason %s on %s', (code, reason, blame) => {
    expect(blameOfCode(code, reason)).toBe(blame);
  });

  it('should blame every upstream kind as the code it answers, with that code', () => {
    for (const kind of KINDS) {
      const error = new UpstreamError(kind, 'detail', { operation: 'getAll', upstreamMessage: 'no' });
      const answered = fromUpstreamError(error);
      expect(answered.extensions.code, kind).toBe(UPSTREAM_KIND_CODE[kind]);
      expect(answered.extensions.blame, kind).toBe(error.blame);
      expect(error.blame, kind).toBe(blameOf(kind));
      // What leaves through formatError says the same.
      expect(format(answered.toJSON(), answered).extensions?.blame, kind).toBe(error.blame);
    }
  });

  it('should keep the blame model of the README: only these kinds are not the caller', () => {
    const notCaller = Object.fromEntries(
      KINDS.filter((k) => blameOf(k) !== 'caller').map((k) => [k, blameOf(k)]),
    );
    expect(notCaller).toEqual({
      service: 'upstream_refusal',
      tenant_mismatch: 'upstream_refusal',
      timeout: 'upstream_health',
      unavailable: 'upstream_health',
      bad_response: 'upstream_health',
      outcome_unknown: 'upstream_health',
      circuit_open: 'upstream_health',
      overloaded: 'upstream_health',
      request_rejected: 'gateway',
      dialect_mismatch: 'gateway',
      internal: 'gateway',
    });
  });

  it("should answer every code with the table's blame, in GraphQL and at the HTTP edge", () => {
    for (const code of CODES) {
      const error = new GraphQLError('x', { extensions: { code } });
      expect(format(error.toJSON(), error).extensions?.blame, code).toBe(blameOfCode(code));
      expect(httpErrorBody(code, 'x').errors[0].extensions.blame, code).toBe(blameOfCode(code));
    }
    const busy = httpErrorBody(ErrorCode.GATEWAY_BUSY, 'x', { reason: 'connections' });
    expect(busy.errors[0].extensions.blame).toBe('gateway');
  });

  it("should log a caller's mistake at the route's level, the upstream's at warn, the gateway's at error", () => {
    expect(levelOf([blameOfCode(ErrorCode.BAD_USER_INPUT)], 200, 'info')).toBe('info');
    expect(levelOf([blameOfCode(ErrorCode.MAX_DEPTH_EXCEEDED)], 400, 'info')).toBe('info');
    expect(levelOf([blameOfCode(ErrorCode.NOT_FOUND)], 404, 'debug')).toBe('debug');
    expect(levelOf([blameOfCode(ErrorCode.UPSTREAM_UNAVAILABLE)], 200, 'info')).toBe('warn');
    expect(levelOf([blameOfCode(ErrorCode.BAD_UPSTREAM_VALUE)], 200, 'info')).toBe('warn');
    expect(levelOf([blameOfCode(ErrorCode.INTERNAL_SERVER_ERROR)], 500, 'info')).toBe('error');
    expect(levelOf([blameOfCode(ErrorCode.TOO_MANY_REQUESTS, 'pattern_guard_busy')], 200, 'info')).toBe(
      'error',
    );
    for (const code of CODES) {
      const blame = blameOfCode(code);
      expect(levelOf([blame], 200, 'info'), code).toBe(LOG_LEVEL_OF_BLAME[blame] ?? 'info');
    }
  });
});

/** Every `.ts` file under `dir`. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('errors in one place', () => {
  const outside = sourceFiles('src').filter(
    (file) => !file.startsWith(join('src', 'errors')) && !file.startsWith(join('src', 'generated')),
  );

  it('should build no GraphQLError outside src/errors', () => {
    const building = outside.filter((file) => readFileSync(file, 'utf8').includes('new GraphQLError('));
    expect(building).toEqual([]);
  });

  // A comparison (`error.blame === 'upstream_health'`) reads a blame; a literal anywhere else writes one.
  it('should write no blame outside src/errors: every other module reads the table', () => {
    const writing = outside.filter((file) =>
      /blame:\s*'|(?<![=!]==\s*)'(?:upstream_refusal|upstream_health)'|\?\s*'gateway'\s*:\s*'caller'/.test(
        readFileSync(file, 'utf8'),
      ),
    );
    expect(writing).toEqual([]);
  });

  it('should import nothing into src/errors from the folders above it', () => {
    const upward = sourceFiles(join('src', 'errors')).filter((file) =>
      readFileSync(file, 'utf8').includes("from '.."),
    );
    expect(upward).toEqual([]);
  });
});
