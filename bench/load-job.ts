/**
 * What the orchestrator asks the load process to do, what it answers, and how a response body is judged.
 * Shared by `run.ts` (which builds jobs) and `load.ts` (which runs them with autocannon).
 */
import { isDeepStrictEqual } from 'node:util';

/** How every response body of a job is checked; a body that fails counts as a mismatch. */
export type BodyCheck =
  /** The body equals `json` (key order ignored); `exact` is a byte-exact fast path seen in the pre-flight. */
  | { kind: 'equals'; json: unknown; exact?: string; jsonp: boolean }
  /** A save answer naming a new id: `{data:{saveObject:{id}}}`, or for JSONP `{status:'success',savedObjectId}`. */
  | { kind: 'saved'; jsonp: boolean };

/** One load run: an autocannon invocation against one peer. */
export interface LoadJob {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  durationSeconds: number;
  /** Requests per second over all connections; unset = as fast as the peer answers. */
  overallRate?: number;
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
export function decodeJsonp(text: string): unknown {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  return JSON.parse(open >= 0 && close > open ? text.slice(open + 1, close) : text) as unknown;
}

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
  const { exact, json, jsonp } = check;
  return (body) => body === exact || isDeepStrictEqual(parse(body, jsonp), json);
}
