/**
 * Starts the gateway from the image's layout in `image` (`node <args>`) in production ({@link imageEnv}, with
 * `extra`) on a free loopback port, every upstream URL a port nothing listens on; answers once `/healthz`
 * answers, with its base URL and process.
 */
import { startHttpProcess, type RunningProcess } from '../../support/child-process.ts';
import { freePort } from '../../support/free-port.ts';
import { imageEnv } from './image-env.ts';

export async function startImageGateway(
  image: string,
  args: string[],
  extra: Record<string, string>,
  timeoutMillis: number,
): Promise<{ base: string; gateway: RunningProcess }> {
  const port = await freePort();
  const upstream = 'http://127.0.0.1:9';
  const base = `http://127.0.0.1:${port}`;
  const gateway = await startHttpProcess({
    name: 'gateway',
    args,
    cwd: image,
    env: imageEnv(port, upstream, extra),
    readyUrl: `${base}/healthz`,
    timeoutMillis,
  });
  return { base, gateway };
}
