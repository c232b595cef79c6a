/**
 * The HTTP layer under the upstream client: one keep-alive undici `Pool` per upstream origin, undici's own
 * connect/headers/body deadlines, one timer per call for the whole-call deadline, and a response size cap
 * enforced while the body arrives. It returns the body bytes of a 2xx answer, with their `Content-Type` (the
 * exchange decodes them once, whole: a multi-byte character may be split across chunks), and throws only
 * `UpstreamError`. It speaks undici's handler API (`dispatch`) rather than `request`: undici hands the
 * handler a controller to abort with, so no call makes an `AbortSignal`, a listener or a body stream.
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
  /**
   * Handed the `set-cookie` values of a 2xx answer (the form login's session cookie); the only response
   * header a caller sees besides what the transport reads itself.
   */
  onSetCookie?: ((values: string | string[] | undefined) => void) | undefined;
}

/** A 2xx answer: its bytes, undecoded, and the `Content-Type` that names their charset. */
export interface HttpAnswer {
  /** The 2xx status. */
  status: number;
  body: Uint8Array;
  contentType: string | undefined;
}

/** Sends calls; see {@link createHttpTransport}. */
export interface HttpTransport {
  /** Resolves to the body of a 2xx answer. */
  send(call: HttpCall): Promise<HttpAnswer>;
  /** Closes the pools this transport created (not an injected dispatcher). */
  close(): Promise<void>;
}

/** Creates the transport; pools are created lazily, one per origin. */
export function createHttpTransport(options: HttpTransportOptions): HttpTransport {
  const { callTimeoutMillis, maxResponseBytes } = options;
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

  /**
   * One exchange through the dispatcher's own `dispatch` and a handler: no `AbortSignal` (the handler is
   * given undici's controller to abort with), no body stream, and one promise for the whole call.
   */
  function send(call: HttpCall): Promise<HttpAnswer> {
    return new Promise<HttpAnswer>((resolve, reject) => {
      let controller: Dispatcher.DispatchController | undefined;
      // Why the call was cut before undici handed over its controller; applied as soon as it does.
      let cut: Error | undefined;
      let settled = false;
      // The answer arrived to its end (or failed): its connection is undici's again.
      let ended = false;
      let callTimedOut = false;
      let counting: AnswerLease | undefined;
      const chunks: Buffer[] = [];
      let total = 0;
      let contentType: string | undefined;
      let status = 0;

      function fail(error: unknown): void {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(toTransportError(error, { operation: call.operation, callTimedOut, callTimeoutMillis }));
      }

      /**
       * Gives up on the call with `error`: the connection is dropped (an unread or refused answer is never
       * read). undici is told it was cancelled on purpose (an `AbortError`, as an aborted signal would say),
       * so that its HTTP span keeps the status and does not record the gateway's own error as an exception.
       */
      function drop(error: unknown): void {
        fail(error);
        const reason = new DOMException('This operation was aborted', 'AbortError');
        if (controller === undefined) cut = reason;
        else if (!controller.aborted) controller.abort(reason);
      }

      /**
       * Gives up on an answer (error status, too large, past the answer budget) without reading more: the
       * caller is answered now, the connection cut only if the answer is still arriving. A small error page
       * that came whole keeps its connection, or every failed call of a sick upstream would open a new one.
       */
      function refuse(error: unknown): void {
        fail(error);
        // undici hands over a response that came in one read (headers and body) in one go, before this runs.
        queueMicrotask(() => {
          if (!ended) drop(error);
        });
      }

      // One plain timer per call: the whole-call deadline, connection wait and body included.
      const timer = setTimeout(() => {
        callTimedOut = true;
        drop(new DOMException('This operation was aborted', 'AbortError'));
      }, callTimeoutMillis);

      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(started) {
          controller = started;
          if (cut !== undefined) started.abort(cut);
        },
        onResponseStart(_controller, statusCode, headers) {
          status = statusCode;
          if (statusCode < 200 || statusCode > 299) {
            // An error page can be large and slow: never read it.
            const location = headers.location;
            refuse(
              fromHttpStatus(statusCode, call.operation, Array.isArray(location) ? location[0] : location),
            );
            return;
          }
          const length = headers['content-length'];
          const announced = typeof length === 'string' ? Number(length) : Number.NaN;
          if (announced > maxResponseBytes) {
            refuse(tooLarge(call.operation, maxResponseBytes));
            return;
          }
          // An announced length is taken from the lease at once (undici holds the body to it), so a
          // refused answer is never read; otherwise each chunk is taken as it arrives.
          const lease = call.lease;
          const prepaid = lease !== undefined && Number.isSafeInteger(announced) && announced >= 0;
          const refusal = prepaid ? lease.take(announced) : undefined;
          if (refusal !== undefined) {
            refuse(refusal);
            return;
          }
          counting = prepaid ? undefined : lease;
          call.onSetCookie?.(headers['set-cookie']);
          const type = headers['content-type'];
          // Two Content-Type headers are a broken answer; the last one is what a browser would take.
          contentType = Array.isArray(type) ? type.at(-1) : type;
        },
        onResponseData(_controller, chunk) {
          if (settled) return;
          total += chunk.length;
          if (total > maxResponseBytes) {
            refuse(tooLarge(call.operation, maxResponseBytes));
            return;
          }
          const refusal = counting?.take(chunk.length);
          if (refusal !== undefined) {
            refuse(refusal);
            return;
          }
          chunks.push(chunk);
        },
        onResponseEnd() {
          ended = true;
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          const [only] = chunks;
          const body = chunks.length === 1 && only !== undefined ? only : Buffer.concat(chunks, total);
          resolve({ status, body, contentType });
        },
        onResponseError(_controller, error) {
          ended = true;
          fail(error);
        },
      };

      try {
        // The dispatcher's own `dispatch` with origin and path: the top-level `request(url)` parses the URL again.
        dispatcherFor(call.origin).dispatch(
          {
            origin: call.origin,
            path: call.path,
            method: call.method,
            headers: { accept: ACCEPT, ...call.headers },
            body: call.body ?? null,
            headersTimeout: options.headersTimeoutMillis,
            bodyTimeout: options.bodyTimeoutMillis,
          },
          handler,
        );
      } catch (error) {
        fail(error);
      }
    });
  }

  async function close(): Promise<void> {
    const open = [...pools.values()];
    pools.clear();
    await Promise.all(open.map((pool) => pool.close()));
  }

  return { send, close };
}

/** What the client accepts: the JSONP the reads answer, JSON the logins answer. */
const ACCEPT = 'application/javascript, application/json;q=0.9, */*;q=0.1';

function tooLarge(operation: string, maxBytes: number): UpstreamError {
  return new UpstreamError('bad_response', `response larger than ${maxBytes} bytes`, { operation });
}
