/**
 * The orchestrator's side of the load process (`load.ts`): one job at a time over its stdin, one result
 * per line of its stdout. Jobs travel over a pipe, not the command line, so tokens never show in `ps`.
 */
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { LoadJob, LoadResult } from './load-job.ts';
import { logTail, startNodeProcess, stopProcess } from './processes.ts';
import type { BenchProcess } from './processes.ts';

/** A running load process. */
export interface LoadClient {
  process: BenchProcess;
  run(job: LoadJob): Promise<LoadResult>;
  close(): Promise<void>;
}

/** Starts `load.ts` as its own process (`name` tells two apart in the logs). */
export function startLoadClient(logDir: string, name = 'load'): LoadClient {
  const script = fileURLToPath(new URL('load.ts', import.meta.url));
  const started = startNodeProcess(name, script, { NODE_ENV: 'production' }, logDir, 'pipe');
  const { stdin, stdout } = started.child;
  if (stdin === null || stdout === null) throw new Error('the load process has no pipes');
  const waiting: ((line: string | undefined) => void)[] = [];
  const lines = createInterface({ input: stdout });
  lines.on('line', (line) => waiting.shift()?.(line));
  started.child.once('exit', () => {
    for (const resolve of waiting.splice(0)) resolve(undefined);
  });
  return {
    process: started,
    async run(job) {
      const line = await new Promise<string | undefined>((resolve) => {
        waiting.push(resolve);
        stdin.write(`${JSON.stringify(job)}\n`);
      });
      if (line === undefined) throw new Error(`the load process exited:\n${logTail(started)}`);
      const answer = JSON.parse(line) as { ok: true; result: LoadResult } | { ok: false; message: string };
      if (!answer.ok) throw new Error(`load run failed: ${answer.message}`);
      return answer.result;
    },
    async close() {
      stdin.end();
      await stopProcess(started);
    },
  };
}
