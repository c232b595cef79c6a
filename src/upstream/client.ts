/**
 * The upstream client: the seven operations of upstream-api.md over {@link createHttpTransport}, with the
 * decisions of DESIGN.md where that document is silent. Every answer is decoded without `eval` and
 * validated before it is returned; every failure is an `UpstreamError` that holds no secret.
 */
import type { z } from 'zod';
import { UpstreamError, isUpstreamError } from './errors.ts';
import { createHttpTransport } from './http-transport.ts';
import { buildRequestPath, parseBaseUrl } from './join-url.ts';
import type { UpstreamBase } from './join-url.ts';
import { createCallbackName, decodeJsonOrJsonp, decodeJsonp } from './jsonp.ts';
import { parseAnswer, toAuthPattern } from './parse-answer.ts';
import {
  formLoginAnswer,
  getAllAnswer,
  getObjectAnswer,
  jsonLoginAnswer,
  metadataAnswer,
  saveAnswer,
  updateAnswer,
} from './response-schemas.ts';
import { retryRead } from './retry-read.ts';
import { toTransportError } from './transport-error.ts';
import type {
  Criterion,
  PageStartMode,
  UpstreamClient,
  UpstreamClientOptions,
  UpstreamCredentials,
} from './types.ts';
import type { WireFilterCommand, WireOperation } from './wire.ts';

/** The request of one attempt; built per attempt, because every attempt gets a fresh callback name. */
interface BuiltRequest {
  path: string;
  query?: Record<string, string | undefined>;
  contentType?: string;
  body?: string;
}

/** Everything that differs between the seven operations. */
interface Exchange<T> {
  operation: WireOperation;
  base: UpstreamBase;
  method: 'GET' | 'POST';
  /** Reads are retried on `timeout`/`unavailable`; writes and logins never. */
  retry: boolean;
  /** `jsonp`: wrapped in the callback we sent. `json`: plain JSON, though a wrapper is tolerated. */
  answer: 'jsonp' | 'json';
  schema: z.ZodType<T>;
  /** Sent with the call; masked if the upstream echoes them in an error message. */
  secrets: readonly string[];
  build(callback: string): BuiltRequest;
}

/** Creates the client. Base addresses are validated now: a bad one throws a `TypeError` naming it. */
export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const api = parseBaseUrl('apiUrl', options.apiUrl);
  const base = parseBaseUrl('baseUrl', options.baseUrl);
  const studio = parseBaseUrl('studioUrl', options.studioUrl);
  const server = parseBaseUrl('serverUrl', options.serverUrl);
  const pageStartMode = options.pageStartMode ?? 'page0';
  const readRetries = options.readRetries ?? 2;
  const callTimeoutMillis = options.callTimeoutMillis ?? 10_000;
  const authPattern = toAuthPattern(options.authErrorPattern);
  const transport = createHttpTransport({
    connectTimeoutMillis: options.connectTimeoutMillis ?? 2_000,
    headersTimeoutMillis: options.headersTimeoutMillis ?? 5_000,
    bodyTimeoutMillis: options.bodyTimeoutMillis ?? 5_000,
    callTimeoutMillis,
    maxResponseBytes: options.maxResponseBytes ?? 8 * 1024 * 1024,
    connectionsPerOrigin: options.connectionsPerOrigin ?? 32,
    dispatcher: options.dispatcher,
  });

  async function attempt<T>(exchange: Exchange<T>, attemptNumber: number): Promise<T> {
    const { operation } = exchange;
    const started = performance.now();
    let outcome = 'ok';
    try {
      const callback = createCallbackName();
      const built = exchange.build(callback);
      const text = await transport.send({
        operation,
        method: exchange.method,
        origin: exchange.base.origin,
        path: buildRequestPath(exchange.base, built.path, built.query),
        ...(built.contentType === undefined ? {} : { headers: { 'content-type': built.contentType } }),
        ...(built.body === undefined ? {} : { body: built.body }),
      });
      const decoded =
        exchange.answer === 'jsonp'
          ? decodeJsonp(text, callback, operation)
          : decodeJsonOrJsonp(text, operation);
      return parseAnswer(decoded, exchange.schema, { operation, authPattern, secrets: exchange.secrets });
    } catch (error) {
      const failure = isUpstreamError(error)
        ? error
        : toTransportError(error, { operation, callTimedOut: false, callTimeoutMillis });
      outcome = failure.kind;
      throw failure;
    } finally {
      report({ operation, durationMillis: performance.now() - started, outcome, attempt: attemptNumber });
    }
  }

  function report(event: Parameters<NonNullable<UpstreamClientOptions['onCall']>>[0]): void {
    try {
      options.onCall?.(event);
    } catch {
      // A failing metrics or log listener must not turn a good upstream answer into an error.
    }
  }

  function run<T>(exchange: Exchange<T>): Promise<T> {
    return exchange.retry ? retryRead(readRetries, (n) => attempt(exchange, n)) : attempt(exchange, 1);
  }

  function read<T>(
    operation: WireOperation,
    credentials: UpstreamCredentials,
    schema: z.ZodType<T>,
    path: string,
    query: Record<string, string | undefined>,
  ): Promise<T> {
    return run({
      operation,
      base: studio,
      method: 'GET',
      retry: true,
      answer: 'jsonp',
      schema,
      secrets: [credentials.apiToken],
      build: (callback) => ({ path, query: { ...query, ...credentialQuery(credentials), callback } }),
    });
  }

  return {
    async loginJson(username, password) {
      const answer = await run({
        operation: 'loginJson',
        base: api,
        method: 'POST',
        retry: false,
        answer: 'json',
        schema: jsonLoginAnswer,
        secrets: [password],
        build: () => ({
          path: '/v1/user/login',
          contentType: 'application/json',
          body: JSON.stringify({ username, password }),
        }),
      });
      return { token: answer.token };
    },

    async loginForm(username, password) {
      const answer = await run({
        operation: 'loginForm',
        base,
        method: 'POST',
        retry: false,
        answer: 'json',
        schema: formLoginAnswer,
        secrets: [password],
        build: () => ({
          path: '/app/login.jsp',
          contentType: 'application/x-www-form-urlencoded',
          body: new URLSearchParams({ username, password }).toString(),
        }),
      });
      return {
        userId: answer.userId,
        username: answer.username,
        token: answer.token,
        message: answer.message,
      };
    },

    async getMetadata(credentials, objectId, category) {
      const path = `/studio/jsonp/metadata/get/${encodeSegment('metadata', objectId)}/`;
      const answer = await read('metadata', credentials, metadataAnswer, path, { category });
      return answer.data ?? null;
    },

    async getObject(credentials, objectName, criteria) {
      const query = { objectName, filterCommand: filterCommand(criteria) };
      const answer = await read('getObject', credentials, getObjectAnswer, '/studio/jsonp/getObject/', query);
      return answer.data[0] ?? null;
    },

    async getAll(credentials, objectName, criteria, pageSize, pageIndex) {
      const query = {
        objectName,
        filterCommand: filterCommand(criteria),
        pageSize: String(pageSize),
        pageStart: String(toPageStart(pageStartMode, pageIndex, pageSize)),
      };
      const answer = await read('getAll', credentials, getAllAnswer, '/studio/jsonp/getAll', query);
      return { records: answer.data, totalCount: answer.totalCount };
    },

    async save(credentials, objectName, data) {
      const { apiToken, applicationCode, organizationCode } = credentials;
      return run({
        operation: 'save',
        base: server,
        method: 'POST',
        retry: false,
        answer: 'jsonp',
        schema: saveAnswer,
        secrets: [apiToken],
        // DESIGN.md: `callback` travels in the query string and, with the same value, in the body.
        build: (callback) => ({
          path: '/studio/jsonp/save',
          query: { callback },
          contentType: 'application/json',
          body: JSON.stringify({ objectName, data, apiToken, applicationCode, organizationCode, callback }),
        }),
      });
    },

    async update(credentials, objectName, id, data) {
      return run({
        operation: 'update',
        base: server,
        method: 'GET',
        retry: false,
        answer: 'jsonp',
        schema: updateAnswer,
        secrets: [credentials.apiToken],
        build: (callback) => ({
          path: `/studio/jsonp/update/${encodeSegment('update', id)}`,
          query: { objectName, data: JSON.stringify(data), ...credentialQuery(credentials), callback },
        }),
      });
    },

    async close() {
      await transport.close();
    },
  };
}

/** The credentials every read and the update carry in the query string. */
function credentialQuery(credentials: UpstreamCredentials): Record<string, string | undefined> {
  return {
    username: credentials.username,
    apiToken: credentials.apiToken,
    applicationCode: credentials.applicationCode,
    organizationCode: credentials.organizationCode,
  };
}

function filterCommand(criteria: readonly Criterion[]): string {
  const command: WireFilterCommand = {
    criteria: criteria.map(({ fieldName, operator, value }) => ({ fieldName, operator, value })),
  };
  return JSON.stringify(command);
}

/** Converts the zero-based page index to the upstream's `pageStart` (DESIGN.md, `UPSTREAM_PAGE_START`). */
export function toPageStart(mode: PageStartMode, pageIndex: number, pageSize: number): number {
  if (mode === 'page1') return pageIndex + 1;
  if (mode === 'offset') return pageIndex * pageSize;
  return pageIndex;
}

/**
 * One path segment. `.` and `..` cannot name an object in a path (servers resolve them, even encoded, and
 * would reach another endpoint), so such an id is reported as not found without a request.
 */
function encodeSegment(operation: WireOperation, value: string): string {
  if (value === '.' || value === '..') {
    throw new UpstreamError('not_found', 'an id of "." or ".." cannot be addressed', { operation });
  }
  return encodeURIComponent(value);
}
