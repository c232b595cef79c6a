/**
 * What the machine itself adds to a loopback round trip while a flood runs: a trivial HTTP server in a
 * process of its own (it answers `{}` and does nothing else), pinged by the victim's thread right after
 * each of its reads. The fair-share tests run the gateway, its upstream, the flood's client and the victim
 * on one machine's two cores; beside other work (CI's neighbours, a load of 6), the operating system's
 * scheduler delays every process that wakes, the gateway's or not. The probe's p95 under the flood less
 * its quiet p95 is that delay, measured in the same windows, and the victim's bound allows it: the
 * gateway's share of the slowdown is what remains. On a quiet machine it is about nothing.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';

/** A running probe. */
export interface MachineProbe {
  /** Milliseconds of one POST answered by the probe, sent with `fetch` (the victim's own client). */
  ping(fetch: (url: string, init: RequestInit) => Promise<Response>): Promise<number>;
  stop(): void;
}

const SERVER = `
const server = require('node:http').createServer((request, response) => {
  request.resume();
  request.on('end', () => response.end('{}'));
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;

/** Starts the probe's process and waits until it listens. */
export async function startMachineProbe(): Promise<MachineProbe> {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [port] = (await once(child.stdout, 'data')) as [Buffer];
  const url = `http://127.0.0.1:${port.toString().trim()}/`;
  return {
    ping: async (fetch) => {
      const started = performance.now();
      await (await fetch(url, { method: 'POST', body: '{}' })).text();
      return performance.now() - started;
    },
    stop: () => {
      child.kill();
    },
  };
}
