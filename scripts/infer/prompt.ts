/** Asks on the terminal for what the settings do not hold; the password is not echoed. */
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';

/** Asks one question; with `secret`, what is typed is not shown. */
export async function ask(question: string, secret = false): Promise<string> {
  let muted = false;
  // Readline echoes through its output stream: a stream that drops writes while muted hides the password.
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const lines = createInterface({ input: process.stdin, output, terminal: process.stdin.isTTY });
  try {
    const answer = lines.question(question);
    muted = secret;
    return (await answer).trim();
  } finally {
    if (secret) process.stderr.write('\n');
    lines.close();
  }
}
