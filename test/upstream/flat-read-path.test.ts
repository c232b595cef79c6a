/**
 * The flat read path (docs/design.md, "The upstream read path"): a read goes from the resilience layer to
 * undici without an `AbortSignal` or a promise per layer, and its deadlines still cut it. Observed through
 * a recording dispatcher, which sees exactly what the transport hands to undici.
 */
import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { UpstreamError } from '../../src/errors/upstream-error.ts';
import { createUpstreamClient } from '../../src/upstream/client/client.ts';
import type { UpstreamCredentials } from '../../src/upstream/client/types.ts';
import { withResilience } from '../../src/upstream/resilience/resilience.ts';
import { createRetryBudget } from '../../src/upstream/resilience/retry-budget.ts';
import { createRecordingClient } from '../support/recording-client.ts';
import { clientSettingsOf } from '../../src/upstream/client/client-settings.ts';

/** The client settings a user gets by default. */
const DEFAULT_CLIENT_SETTINGS = clientSettingsOf(loadConfig({}));

const CREDENTIALS: UpstreamCredentials = { username: 'u', apiToken: 't', applicationCode: 'a' };
const URL = 'http://upstream.test:9';
const URLS = { apiUrl: URL, baseUrl: URL, studioUrl: URL, serverUrl: URL };

interface Seen {
  options: Dispatcher.DispatchOptions;
  abortedWith: Error | undefined;
}

/** A dispatcher that records each dispatch; `answer` says whether (and what) it answers. */
function recordingDispatcher(answer: (path: string) => string | undefined) {
  const seen: Seen[] = [];
  const dispatcher = {
    dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) {
      const entry: Seen = { options, abortedWith: undefined };
      seen.push(entry);
      const controller = {
        aborted: false,
        paused: false,
        reason: null,
        abort(reason: Error) {
          entry.abortedWith = reason;
          this.aborted = true;
          handler.onResponseError?.(controller, reason);
        },
        pause: () => undefined,
        resume: () => undefined,
      };
      const asController = controller as unknown as Dispatcher.DispatchController;
      handler.onRequestStart?.(asController, {});
      const body = answer(options.path);
      if (body !== undefined) {
        setImmediate(() => {
          handler.onResponseStart?.(asController, 200, { 'content-length': String(body.length) });
          handler.onResponseData?.(asController, Buffer.from(body));
          handler.onResponseEnd?.(asController, {});
        });
      }
      return true;
    },
  };
  return { dispatcher: dispatcher as unknown as Dispatcher, seen };
}

/** A JSONP answer of getObject to the callback the request named. */
const answerGetObject = (path: string) => {
  const callback = /callback=([^&]+)/.exec(path)?.[1] ?? '';
  return `${decodeURIComponent(callback)}({"status":"success","data":[{"_id":"1"}]})`;
};

function stack(
  dispatcher: Dispatcher,
  callTimeoutMillis: number,
  remainingMillis?: () => number | undefined,
) {
  const client = createUpstreamClient({ ...DEFAULT_CLIENT_SETTINGS, ...URLS, dispatcher, callTimeoutMillis });
  return withResilience(client, {
    ...loadConfig({}).resilience,
    originOf: () => URL,
    retryBudget: createRetryBudget({ ratio: 0.2, minRetriesPerWindow: 100 }),
    readRetries: 0,
    attemptTimeoutMillis: callTimeoutMillis,
    ...(remainingMillis === undefined ? {} : { remainingMillis }),
  });
}

describe('the flat read path', () => {
  it('should hand undici a read without an AbortSignal, and answer it', async () => {
    const { dispatcher, seen } = recordingDispatcher(answerGetObject);
    const reads = stack(dispatcher, 5_000, () => 60_000);
    await expect(reads.getObject(CREDENTIALS, 'X', [])).resolves.toEqual({ _id: '1' });
    expect(seen).toHaveLength(1);
    expect(Object.keys(seen[0]?.options ?? {})).not.toContain('signal');
    expect(seen[0]?.abortedWith).toBeUndefined();
  });

  it('should still abort the request when the call deadline passes', async () => {
    const { dispatcher, seen } = recordingDispatcher(() => undefined);
    const reads = stack(dispatcher, 50);
    const error: unknown = await reads.getObject(CREDENTIALS, 'X', []).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).kind).toBe('timeout');
    expect(seen[0]?.abortedWith).toBeInstanceOf(Error);
  });

  it('should still answer the caller with a timeout when the request deadline is nearer than the call deadline', async () => {
    const { dispatcher } = recordingDispatcher(() => undefined);
    const reads = stack(dispatcher, 60_000, () => 50);
    const error: unknown = await reads.getObject(CREDENTIALS, 'X', []).catch((e: unknown) => e);
    expect((error as UpstreamError).kind).toBe('timeout');
    // The request's own deadline cut it, not the call's 60 s one ("no complete answer within 60000 ms").
    expect((error as UpstreamError).message).toMatch(/deadline/);
  });

  it('should reach the client in the same tick when a slot is free: no promise in between', () => {
    const client = createRecordingClient();
    const reads = withResilience(client, {
      ...loadConfig({}).resilience,
      originOf: () => URL,
      retryBudget: createRetryBudget({ ratio: 0.2, minRetriesPerWindow: 100 }),
      remainingMillis: () => 60_000,
    });
    void reads.getAll(CREDENTIALS, 'X', [], 10, 0);
    expect(client.calls).toEqual([['getAll', ['X', [], 10, 0]]]);
  });
});
