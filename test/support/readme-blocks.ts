/** The README's fenced blocks, as a reader copies them: what the tests of the README hold to the gateway. */
import { readFileSync } from 'node:fs';

/** The README's text. */
export const README = readFileSync('README.md', 'utf8');

/** The fenced blocks of `language`, with the line each starts on (indented blocks taken out of their indent). */
export function readmeBlocks(language: string): { line: number; text: string }[] {
  const found: { line: number; text: string }[] = [];
  for (const match of README.matchAll(/^( *)```(\w*)\n([\s\S]*?)^\1```/gm)) {
    if (match[2] !== language) continue;
    const indent = match[1] ?? '';
    const text = (match[3] ?? '')
      .split('\n')
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
      .join('\n');
    found.push({ line: README.slice(0, match.index).split('\n').length, text });
  }
  return found;
}
