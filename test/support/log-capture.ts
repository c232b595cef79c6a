/** The gateway's log as a test reads it: a stream for the logger, and the JSON lines written to it so far. */
import { PassThrough } from 'node:stream';

/** One JSON log line; the fields tests look at are typed, the rest left open. */
export interface LogLine {
  msg: string;
  level: number | string;
  reqId?: string;
  outcome?: string;
  [key: string]: unknown;
}

/**
 * A stream for a logger to write to (`logStream`, `createLogger({ stream })`), the lines it received, and
 * those of them with the message `msg`.
 */
export function logCapture(): {
  stream: PassThrough;
  lines: () => LogLine[];
  saying: (msg: string) => LogLine[];
} {
  const raw: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => raw.push(chunk.toString('utf8')));
  const lines = (): LogLine[] =>
    raw
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LogLine);
  return { stream, lines, saying: (msg) => lines().filter((line) => line.msg === msg) };
}

/** The request line of request `id` among `lines`. */
export const lineOf = (lines: LogLine[], id: string): LogLine | undefined =>
  lines.find((candidate) => candidate.reqId === id);
