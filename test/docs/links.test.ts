/**
 * Every relative link of the README and the documents under `docs/`, `deploy/` and `bench/` reaches a file
 * of the repository, and its `#anchor` a heading of that file (as GitHub makes anchors): moving a section
 * between the README and `docs/` cannot leave a reader on a dead link.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const DOCUMENTS = [
  'README.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  'deploy/README.md',
  'bench/README.md',
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replaceAll(' ', '-');
}

/** The anchors of a Markdown file's headings, code blocks skipped. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  let inCode = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) inCode = !inCode;
    const heading = inCode ? null : /^#{1,6} (.*)$/.exec(line);
    if (heading) anchors.add(anchorOf(heading[1] ?? ''));
  }
  return anchors;
}

/** `[text](target)` links outside code blocks and inline code. */
function linksOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
}

describe('links between the documents', () => {
  it.each(DOCUMENTS)('should resolve every relative link of %s', (file) => {
    const dead: string[] = [];
    for (const link of linksOf(file)) {
      if (/^[a-z]+:/.test(link)) continue;
      const [path = '', anchor] = link.split('#');
      const target = path === '' ? file : normalize(join(dirname(file), path));
      if (!existsSync(target)) dead.push(`${link} (no ${target})`);
      else if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(target).has(anchor))
        dead.push(`${link} (no heading #${anchor} in ${target})`);
    }
    expect(dead).toEqual([]);
  });
});
