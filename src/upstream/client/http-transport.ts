/**
 * The HTTP layer under the upstream client: one keep-alive undici `Pool` per upstream origin, undici's own
 * connect/headers/body deadlines, one timer per call for the whole-call deadline, and a response size cap
 * enforced while streaming. It returns the body text of a 2xx answer and throws only `UpstreamError`.
 */
import { Pool } from 'undici';
import type { Dispatcher } from 'undici';
import type { AnswerLease } from './answer-budget.ts';
import { UpstreamError } from '../../errors/upstream-error.ts';
import { fromHttpStatus, toTransportError } from './transport-error.ts';

/** Settings of {@link createHttpTransport}; every deadline in milliseconds. */
export interface HttpTransportOptions {
  connectTimeoutMillis: number;
  headersTimeoutMillis: number;
  bodyTimeoutMillis: number;
  callTimeoutMillis: number;
  maxResponseBytes: number;
  connectionsPerOrigin: number;
  /** Used for every origin instead of the transport's own pools; the caller closes it. */
  dispatcher?: Dispatcher | undefined;
}

/** One HTTP exchange. `path` includes the query string, which may hold credentials: it is never logged. */
export interface HttpCall {
  operation: string;
  method: 'GET' | 'POST';
  origin: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Counts the answer's bytes as they arrive (`answer-budget.ts`); a refusal cuts the answer. */
  lease?: AnswerLease | undefined;
}

/** Sends calls; see {@link createHttpTransport}. */
export interface HttpTransport {
  /** Resolves to the UTF-8 body of a 2xx answer. */
  send(call: HttpCall): Promise<string>;
  /** Closes the pools this transport created (not an injected dispatcher). */
  close(): Promise<void>;
}

/** Creates the transport; pools are created lazily, one per origin. */
export function createHttpTransport(options: HttpTransportOptions): HttpTransport {
  const pools = new Map<string, Pool>();

  function dispatcherFor(origin: string): Dispatcher {
    if (options.dispatcher !== undefined) return options.dispatcher;
    let pool = pools.get(origin);
    if (pool === undefined) {
      pool = new Pool(origin, {
        connections: options.connectionsPerOrigin,
        connectTimeout: options.connectTimeoutMillis,
        headersTimeout: options.headersTimeoutMillis,
        bodyTimeout: options.bodyTimeoutMillis,
      });
      pools.set(origin, pool);
    }
    return pool;
  }

  async function send(call: HttpCall): Promise<string> {
    const controller = new AbortController();
    let callTimedOut = false;
    // One plain timer per call (cheaper than AbortSignal.timeout): aborting destroys the request or its body.
    const timer = setTimeout(() => {
      callTimedOut = true;
      controller.abort();
    }, options.callTimeoutMillis);
    try {
      // The dispatcher's own `request` with origin and path: the top-level `request(url)` parses the URL again.
      const response = await dispatcherFor(call.origin).request({
        origin: call.origin,
        path: call.path,
        method: call.method,
        headers: { accept: 'application/javascript, application/json;q=0.9, */*;q=0.1', ...call.headers },
        body: call.body ?? null,
        headersTimeout: options.headersTimeoutMillis,
        bodyTimeout: options.bodyTimeoutMillis,
        signal: controller.signal,
      });
      const { statusCode, body } = response;
      if (statusCode < 200 || statusCode > 299) {
        // An error page can be large and slow: never read it, just drop the connection.
        discard(body);
        throw fromHttpStatus(statusCode, call.operation);
      }
      return await readCapped(
        body,
        response.headers['content-length'],
        options.maxResponseBytes,
        call.operation,
        call.lease,
      );
    } catch (error) {
      throw toTransportError(error, {
        operation: call.operation,
        callTimedOut,
        callTimeoutMillis: options.callTimeoutMillis,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  async function close(): Promise<void> {
    const open = [...pools.values()];
    pools.clear();
    await Promise.all(open.map((pool) => pool.close()));
  }

  return { send, close };
}

/**
 * Reads the body as UTF-8, giving up as soon as it passes `maxBytes` (or announces it will), or as soon as
 * `lease` refuses more bytes. An announced length is taken from the lease at once (undici holds the body to
 * it), so a refused answer is never read; otherwise each chunk is taken as it arrives. Plain `data`
 * events: an async iterator over the body costs a promise per chunk and a good part of a small call's time.
 */
function readCapped(
  body: Dispatcher.ResponseData['body'],
  contentLength: string | string[] | undefined,
  maxBytes: number,
  operation: string,
  lease: AnswerLease | undefined,
): Promise<string> {
  const tooLarge = (): UpstreamError =>
    new UpstreamError('bad_response', `response larger than ${maxBytes} bytes`, { operation });
  const announced = typeof contentLength === 'string' ? Number(contentLength) : Number.NaN;
  if (announced > maxBytes) {
    discard(body);
    return Promise.reject(tooLarge());
  }
  const prepaid = lease !== undefined && Number.isSafeInteger(announced) && announced >= 0;
  const refusal = prepaid ? lease.take(announced) : undefined;
  if (refusal !== undefined) {
    discard(body);
    return Promise.reject(refusal);
  }
  const counting = prepaid ? undefined : lease;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    body.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) {
        discard(body);
        reject(tooLarge());
        return;
      }
      const cut = counting?.take(chunk.length);
      if (cut !== undefined) {
        discard(body);
        reject(cut);
        return;
      }
      chunks.push(chunk);
    });
    body.once('end', () => {
      const [only] = chunks;
      resolve(
        chunks.length === 1 && only !== undefined
          ? only.toString('utf8')
          : Buffer.concat(chunks, total).toString('utf8'),
      );
    });
    body.once('error', reject);
  });
}

/** Drops a body we will not read; destroying it unread emits an abort error that nobody needs to see. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}
