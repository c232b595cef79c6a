import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import type { WireOperation } from '../src/upstream/client/wire.ts';
import { handleControl } from './http/control-endpoints.ts';
import { EMULATOR_USERS } from './identity/demo-users.ts';
import type { EmulatorContext, OperationRequest } from './emulator-context.ts';
import type { EmulatorOptions, RunningEmulator } from './emulator-options.ts';
import { createFaultInjector } from './faults/fault-injector.ts';
import { distortReply, isDistortingFault, sendFault } from './faults/fault-responses.ts';
import { createPatternCache } from './operations/filter-command.ts';
import { handleFormLogin, handleJsonLogin } from './operations/login-handlers.ts';
import { createIdGenerator } from './store/object-id.ts';
import { MAX_PAGE_SIZE } from './operations/paging.ts';
import { isOverHeaderLimit, sendUriTooLong } from './http/header-limit.ts';
import { rewordError } from './http/reword-errors.ts';
import { handleGetAll, handleGetObject, handleMetadata } from './operations/read-handlers.ts';
import { isCallbackName, jsonReply, renderReply, type RenderedReply, type Reply } from './http/reply.ts';
import { readBody } from './http/request-body.ts';
import { bodyEncodingOf, encodeText, type EmulatorCharset } from './http/charset.ts';
import { matchRoute } from './http/router.ts';
import { openStore } from './store/open-store.ts';
import type { ObjectStore } from './store/object-store.ts';
import { createTokenRegistry } from './identity/token-registry.ts';
import { createUserDirectory } from './identity/user-directory.ts';
import { handleSave, handleUpdate } from './operations/write-handlers.ts';
import { createLaggingReplica } from './operations/lagging-replica.ts';

type Handler = (context: EmulatorContext, request: OperationRequest) => Reply | Promise<Reply>;

const HANDLERS: Record<WireOperation, Handler> = {
  loginJson: handleJsonLogin,
  loginForm: handleFormLogin,
  metadata: handleMetadata,
  getObject: handleGetObject,
  getAll: handleGetAll,
  save: handleSave,
  update: handleUpdate,
};

const zeroStats = (): Record<WireOperation, number> => ({
  loginJson: 0,
  loginForm: 0,
  metadata: 0,
  getObject: 0,
  getAll: 0,
  save: 0,
  update: 0,
});

/**
 * V8 can rerun a regular expression that backtracks excessively on its linear-time engine (same result).
 * The regex guard refuses the patterns that engine cannot run, so no client pattern can stall the loop.
 * The flag is process-wide and only changes how long such a match takes.
 */
function enableLinearRegexFallback(): void {
  setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
}

function send(
  response: ServerResponse,
  rendered: RenderedReply,
  charset: EmulatorCharset,
  closeConnection = false,
  setCookie?: string,
): void {
  const body = encodeText(rendered.body, charset);
  response.writeHead(rendered.statusCode, {
    'content-type': rendered.contentType,
    'content-length': body.length,
    'cache-control': 'no-store',
    ...(closeConnection ? { connection: 'close' } : {}),
    ...(setCookie === undefined ? {} : { 'set-cookie': setCookie }),
    ...(rendered.location === undefined ? {} : { location: rendered.location }),
  });
  response.end(body);
}

/**
 * An answer with every character beyond ASCII written as a JSON `\u` escape, as Jackson's `ESCAPE_NON_ASCII`
 * writes it: such characters only occur inside JSON strings, where the escape means the same.
 */
function escapeNonAscii(reply: RenderedReply): RenderedReply {
  const body = reply.body.replace(
    /[^\0-\x7f]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return { ...reply, body };
}

/** The servlet session cookie's value in a `Cookie` header (`a=b; JSESSIONID=…`), as a container reads it. */
function sessionIdOf(cookie: string | undefined): string | undefined {
  if (cookie === undefined) return undefined;
  for (const pair of cookie.split(';')) {
    const equals = pair.indexOf('=');
    if (equals > 0 && pair.slice(0, equals).trim() === 'JSESSIONID') return pair.slice(equals + 1).trim();
  }
  return undefined;
}

/** Starts an emulator of the upstream service: all four base addresses at the root of one HTTP server. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  enableLinearRegexFallback();
  const now = options.now ?? Date.now;
  const wrapper = options.wrapper ?? 'plain';
  const latencyMillis = options.latencyMillis ?? 0;
  const { errorMessages } = options;
  const charset = options.charset ?? 'utf-8';
  const rendered = (reply: Reply): RenderedReply => renderReply(reply, wrapper, charset);
  const render =
    options.escapesNonAscii === true
      ? (reply: Reply): RenderedReply => escapeNonAscii(rendered(reply))
      : rendered;
  const faults = createFaultInjector(options.faults);
  const opened = await openStore(options.dataFile, options.objectTypes);
  const { persist, settled } = opened;
  // Writes applied, by object name (the seed not counted): a test proves a tool wrote to no other type.
  const written = new Map<string, number>();
  const count = (objectName: string) => written.set(objectName, (written.get(objectName) ?? 0) + 1);
  const store: ObjectStore = {
    ...opened.store,
    add: (object) => {
      count(object.objectName);
      return opened.store.add(object);
    },
    merge: (object, fields, nowIso) => {
      count(object.objectName);
      return opened.store.merge(object, fields, nowIso);
    },
    replace: (object, fields, nowIso) => {
      count(object.objectName);
      opened.store.replace(object, fields, nowIso);
    },
  };
  const context: EmulatorContext = {
    store,
    users: createUserDirectory([...EMULATOR_USERS, ...(options.users ?? [])]),
    tokens: createTokenRegistry({ ttlSeconds: options.tokenTtlSeconds ?? 28_800, now }),
    // A servlet's sessions are not its tokens: a session id is no apiToken, nor the other way round.
    sessions: createTokenRegistry({ ttlSeconds: options.tokenTtlSeconds ?? 28_800, now }),
    patterns: createPatternCache(),
    matches: options.matches ?? 'regex',
    matchesCase: options.matchesCase ?? 'sensitive',
    metadataKey: options.metadataKey ?? 'data',
    pageStart: options.pageStart ?? 'page0',
    maxPageSize: options.maxPageSize ?? MAX_PAGE_SIZE,
    writes: {
      saveIdAt: options.saveIdAt ?? 'savedObjectId',
      saveWithId: options.saveWithId ?? 'merges',
      updateFields: options.updateFields ?? 'data',
      droppedFields: new Set(options.droppedFields ?? []),
      truncatesNumbers: options.truncatesNumbers ?? false,
    },
    pageZero: options.pageZero ?? 'refuse',
    totalCount: options.totalCount ?? 'number',
    formLoginToken: options.formLoginToken ?? true,
    formLoginSession: options.formLoginSession ?? 'token',
    readQuirks: options.readQuirks ?? {},
    now,
    newId: createIdGenerator(now),
    persist,
  };
  const readLagMillis = options.readLagMillis ?? 0;
  if (readLagMillis > 0) context.replica = createLaggingReplica(store, readLagMillis, now);
  // Reads go to the replica, writes to the primary (the store itself).
  const readContext: EmulatorContext =
    context.replica === undefined ? context : { ...context, store: context.replica.view };
  let stats = zeroStats();
  const closing = new AbortController();
  const control = {
    stats: () => ({ ...stats }),
    resetStats: () => {
      stats = zeroStats();
    },
    faults,
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // A servlet container refuses an oversized request line before any servlet (or counter) sees it.
    if (options.maxUrlBytes !== undefined && isOverHeaderLimit(request, options.maxUrlBytes)) {
      sendUriTooLong(response);
      return;
    }
    const url = request.url ?? '/';
    const queryAt = url.indexOf('?');
    const route = matchRoute(queryAt === -1 ? url : url.slice(0, queryAt));
    if (route === undefined) {
      send(response, render(jsonReply({ status: 'error', message: 'not found' }, 404)), charset);
      return;
    }
    const allowed = route.kind === 'control' ? route.methods : [route.method];
    if (!allowed.includes(request.method ?? '')) {
      response.setHeader('allow', allowed.join(', '));
      send(response, render(jsonReply({ status: 'error', message: 'method not allowed' }, 405)), charset);
      return;
    }
    if (route.kind === 'control') {
      send(response, render(await handleControl(route.name, request, control)), charset);
      return;
    }

    stats[route.operation] += 1;
    const fault = faults.next(route.operation);
    const query = new URLSearchParams(queryAt === -1 ? '' : url.slice(queryAt + 1));
    if (latencyMillis > 0) await sleep(latencyMillis, undefined, { signal: closing.signal });
    if (fault !== undefined && !isDistortingFault(fault)) {
      const callback = query.get('callback');
      sendFault(response, fault, isCallbackName(callback) ? callback : 'callback');
      return;
    }
    // A servlet reads a body in the charset it declares, or its own default (`EMULATOR_CHARSET`).
    const bodyEncoding = bodyEncodingOf(request.headers['content-type'], charset);
    if (route.method === 'POST' && bodyEncoding === undefined) {
      send(
        response,
        render(jsonReply({ status: 'error', message: 'unsupported charset' }, 415)),
        charset,
        true,
      );
      return;
    }
    const body = route.method === 'POST' ? await readBody(request, undefined, bodyEncoding) : undefined;
    const reads =
      route.operation === 'getAll' || route.operation === 'getObject' || route.operation === 'metadata';
    const handled = await HANDLERS[route.operation](reads ? readContext : context, {
      query,
      pathId: route.pathId,
      body: body?.text,
      sessionId: sessionIdOf(request.headers.cookie),
      bodyEncoding,
    });
    const reply =
      errorMessages === undefined ? handled : rewordError(handled, errorMessages, query.get('objectName'));
    send(
      response,
      fault === undefined ? render(reply) : distortReply(reply, fault, wrapper, charset),
      charset,
      body?.abandoned,
      handled.setCookie,
    );
  }

  // Node refuses headers over its own limit (431) first: make room for a larger configured limit.
  const maxHeaderSize =
    options.maxUrlBytes === undefined ? undefined : Math.max(16_384, options.maxUrlBytes + 1024);
  const server = createServer(maxHeaderSize === undefined ? {} : { maxHeaderSize }, (request, response) => {
    handle(request, response).catch(() => {
      // A client that went away, or a bug: never a stack trace on the wire.
      if (response.headersSent || closing.signal.aborted) response.destroy();
      else
        send(response, render(jsonReply({ status: 'error', message: 'internal error' }, 500)), charset, true);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host ?? '127.0.0.1';
  let closed: Promise<void> | undefined;

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    stats: control.stats,
    writesByObjectName: () => Object.fromEntries(written),
    resetStats: control.resetStats,
    setFaults: (next) => {
      faults.set(next);
    },
    close() {
      closed ??= (async () => {
        closing.abort();
        const stopped = new Promise<void>((resolve) => {
          server.close(() => {
            resolve();
          });
        });
        server.closeAllConnections();
        await stopped;
        await settled();
      })();
      return closed;
    },
  };
}
