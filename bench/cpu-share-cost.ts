/**
 * What the CPU share (`src/http/capacity/cpu-share.ts`) costs each request, measured in-process: admitting
 * and finishing a request of one of 32 users in turn (the bench's W1 has 32 users), the loop's busy time
 * read at both ends as in production. Run: `node bench/cpu-share-cost.ts`. Prints nanoseconds per request.
 */
import { EventEmitter } from 'node:events';
import { CPU_SHARE } from '../src/config/defaults.ts';
import { createCpuShare, isCpuWait } from '../src/http/capacity/cpu-share.ts';

const USERS = Array.from({ length: 32 }, (_, i) => ({ key: `u\u0000demo\u0000user-${i}`, anonymous: false }));
const REQUESTS = 1_000_000;

function run(): number {
  const share = createCpuShare(CPU_SHARE);
  const started = process.hrtime.bigint();
  for (let i = 0; i < REQUESTS; i++) {
    const admitted = share.admit(USERS[i % USERS.length] ?? { key: '', anonymous: true });
    if (isCpuWait(admitted)) throw new Error('a request of the bench waited');
    // As the route does: the ticket is a `close` listener of the response.
    const response = new EventEmitter();
    response.once('close', admitted.done);
    response.emit('close');
  }
  return Number(process.hrtime.bigint() - started) / REQUESTS;
}

function baseline(): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < REQUESTS; i++) {
    const response = new EventEmitter();
    response.once('close', () => undefined);
    response.emit('close');
  }
  return Number(process.hrtime.bigint() - started) / REQUESTS;
}

for (let round = 0; round < 5; round++) {
  const base = baseline();
  const full = run();
  process.stdout.write(
    `round ${round}: ${full.toFixed(0)} ns a request with the share, ${base.toFixed(0)} ns for the listener alone: ${(full - base).toFixed(0)} ns\n`,
  );
}
