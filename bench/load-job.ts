/**
 * What the orchestrator asks the load process to do, what it answers, and how a response body is judged.
 * Shared by `run.ts` (which builds jobs) and `load.ts` (which runs them with autocannon).
 */
import { isDeepStrictEqual } from 'node:util';
import { unwrapJsonp } from './peers/upstream-reads.ts';

/** How every response body of a job is checked; a body that fails counts as a mismatch. */
export type BodyCheck =
  /**
   * The body equals one of `json` (key order ignored): one per request variant. `exact` holds the bodies
   * the pre-flight saw, a byte-exact fast path.
   */
  | { kind: 'equals'; json: unknown[]; exact: string[]; jsonp: boolean }
  /** A save answer naming a new id: `{data:{saveObject:{id}}}`, or for JSONP `{status:'success',savedObjectId}`. */
  | { kind: 'saved'; jsonp: boolean };

/** One request variant: where it goes (same origin for all), its headers (its session's) and what it sends. */
export interface LoadVariant {
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** One load run against one peer. */
export interface LoadJob {
  method: 'GET' | 'POST';
  /** Connection `i` sends variant `i % variants.length` (the paced run rotates them per request). */
  variants: LoadVariant[];
  connections: number;
  durationSeconds: number;
  /**
   * Requests per second, evenly spaced (open loop, not autocannon's once-a-second bursts); unset = closed
   * loop with autocannon, as fast as the peer answers.
   */
  pacedRate?: number;
  check: BodyCheck;
}

/** What one load run measured. Latencies are of every response, in milliseconds. */
export interface LoadResult {
  requests: number;
  durationSeconds: number;
  requestsPerSecond: number;
  p50Millis: number;
  p99Millis: number;
  non2xx: number;
  /** Socket errors and timeouts. */
  errors: number;
  mismatches: number;
  /** Up to three bodies that failed the check, cut to 300 characters. */
  mismatchSamples: string[];
}

/** The JSON inside a JSONP answer (between the first `(` and the last `)`), or the whole body. */
export const decodeJsonp = unwrapJsonp;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parse(body: string, jsonp: boolean): unknown {
  try {
    return jsonp ? decodeJsonp(body) : (JSON.parse(body) as unknown);
  } catch {
    return undefined;
  }
}

function isSaved(value: unknown, jsonp: boolean): boolean {
  if (!isRecord(value)) return false;
  if (jsonp) return value.status === 'success' && typeof value.savedObjectId === 'string';
  if ('errors' in value || !isRecord(value.data) || !isRecord(value.data.saveObject)) return false;
  const id = value.data.saveObject.id;
  return typeof id === 'string' && id.length > 0;
}

/** A predicate for autocannon's `verifyBody`: true when the body passes `check`. */
export function createBodyCheck(check: BodyCheck): (body: string) => boolean {
  if (check.kind === 'saved') return (body) => isSaved(parse(body, check.jsonp), check.jsonp);
  const exact = new Set(check.exact);
  const { json, jsonp } = check;
  return (body) => {
    if (exact.has(body)) return true;
    const parsed = parse(body, jsonp);
    return json.some((expected) => isDeepStrictEqual(parsed, expected));
  };
}

/** p50 and p99 of latencies in milliseconds (nearest rank). */
export function latencyPercentiles(latencies: readonly number[]): { p50Millis: number; p99Millis: number } {
  const sorted = Float64Array.from(latencies).sort();
  const at = (fraction: number): number => {
    if (sorted.length === 0) return 0;
    return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] ?? 0;
  };
  return { p50Millis: at(0.5), p99Millis: at(0.99) };
}
