/**
 * The body rows of the Markdown table in `file` whose header row starts with `| <header>`, each as its trimmed
 * cells (a `\|` inside a cell is no border); rows matching `skip` (the header, the rule, …) are left out.
 * For the tests that hold a doc's table to the code.
 */
import { readFileSync } from 'node:fs';

export function markdownTableRows(file: string, header: string, skip: RegExp): string[][] {
  const text = readFileSync(file, 'utf8');
  const table = text.slice(text.indexOf(`\n| ${header}`));
  return table
    .slice(0, table.indexOf('\n\n'))
    .split('\n')
    .filter((line) => line.startsWith('| ') && !skip.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
}
