import type { IncomingMessage } from 'node:http';
import type { WireOperation } from '../../src/upstream/client/wire.ts';
import type { FaultInjector } from '../faults/fault-injector.ts';
import { jsonReply, type Reply } from './reply.ts';
import { readBody } from './request-body.ts';
import type { ControlName } from './router.ts';

/** What the control endpoints steer. */
export interface ControlTarget {
  stats(): Record<WireOperation, number>;
  resetStats(): void;
  faults: FaultInjector;
}

const MAX_CONTROL_BODY_BYTES = 64 * 1024;

/**
 * `GET /__emulator/healthz` (200 once listening: what a process helper waits on), `GET /__emulator/stats`, `POST /__emulator/stats/reset`, `GET|POST /__emulator/faults`: let
 * out-of-process tests and benchmarks read the counters and steer fault injection.
 */
export async function handleControl(
  name: ControlName,
  request: IncomingMessage,
  target: ControlTarget,
): Promise<Reply> {
  if (name === 'healthz') return jsonReply({ status: 'ok' });
  if (name === 'stats') return jsonReply(target.stats());
  if (name === 'statsReset') {
    target.resetStats();
    return jsonReply({ status: 'success' });
  }
  if (request.method === 'GET') return jsonReply({ status: 'success', faults: target.faults.current() });
  const { text } = await readBody(request, MAX_CONTROL_BODY_BYTES);
  if (text === undefined) return jsonReply({ status: 'error', message: 'body too large' }, 413);
  let faults: unknown;
  try {
    faults = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return jsonReply({ status: 'error', message: 'body is not valid JSON' }, 400);
  }
  try {
    target.faults.set(faults);
  } catch (error) {
    return jsonReply(
      { status: 'error', message: error instanceof Error ? error.message : 'invalid faults' },
      400,
    );
  }
  return jsonReply({ status: 'success', faults: target.faults.current() });
}
