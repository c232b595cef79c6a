/**
 * Asks for what the settings do not hold: on a terminal with the password not echoed, or takes one answer a
 * line, without prompts, from piped input (`printf 'demo\ndemo-password\n' | npm run objects:infer -- …`).
 *
 * One reader serves every question. A reader per question lost the piped answers after the first: closing
 * it dropped the lines it had already buffered, the next question waited on an input that had ended, and the
 * process exited 0 without a word. Input that ends before an answer is {@link NoAnswerError}, so a script
 * without a terminal learns what to set instead of waiting or exiting as if it had worked.
 */
import { createInterface, type Interface } from 'node:readline';
import { Writable } from 'node:stream';

/** The input ended (or there was none) before a question was answered. */
export class NoAnswerError extends Error {}

/** Asks questions, one answer each, and lets the process exit once closed. */
export interface Prompt {
  /** Asks one question; with `secret`, what is typed is not shown. */
  ask(question: string, secret?: boolean): Promise<string>;
  /** Stops reading the input: a terminal's would otherwise keep the process running. */
  close(): void;
}

/** A {@link Prompt} over `input` (standard input by default); the prompts go to standard error. */
export function createPrompt(input: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin): Prompt {
  const terminal = input.isTTY === true;
  let muted = false;
  let reader: { lines: Interface; next: AsyncIterator<string> } | undefined;
  // Readline echoes through its output stream: a stream that drops writes while muted hides the password.
  const echo = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  async function ask(question: string, secret = false): Promise<string> {
    if (reader === undefined) {
      const lines = createInterface({ input, output: echo, terminal });
      reader = { lines, next: lines[Symbol.asyncIterator]() };
    }
    // Piped answers need no prompt, and a script's log is clearer without one.
    if (terminal) {
      // Readline redraws the line it edits with its prompt: it must know the question.
      reader.lines.setPrompt(question);
      reader.lines.prompt();
    }
    muted = secret && terminal;
    try {
      const line = await reader.next.next();
      if (line.done === true) throw new NoAnswerError(question.replace(/:\s*$/, ''));
      return line.value.trim();
    } finally {
      if (muted) process.stderr.write('\n');
      muted = false;
    }
  }
  return { ask, close: () => reader?.lines.close() };
}
