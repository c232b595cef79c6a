/**
 * The image's `node_modules` without what a production start never loads (`scripts/prune-runtime-modules.ts`,
 * run by the Dockerfile after `npm ci --omit=dev`): the plan over the repository's lockfile, and the pruned
 * tree at work. The tree is this repository's production packages, hard-linked into the image's layout,
 * pruned by the script as the Dockerfile runs it; the bundle then starts from it in production with the
 * explorer on, serves GraphiQL's four files, and recheck's pure-JavaScript checker still finds a ReDoS.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planPrune, type LockedPackage } from '../../support/runtime-modules.ts';
import { GRAPHIQL_PACKAGE_FILES } from '../../src/http/graphiql.ts';
import { stopProcess, type RunningProcess } from '../../support/child-process.ts';
import { startImageGateway } from '../support/start-image-gateway.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const run = promisify(execFile);
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockedPackage>;
};
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
const plan = planPrune(lock.packages, Object.keys(pkg.dependencies));

describe('the plan, over package-lock.json', () => {
  const production = Object.keys(lock.packages).filter((p) => p !== '' && lock.packages[p]?.dev !== true);
  const removed = (path: string) =>
    plan.remove.some((gone) => path === gone || path.startsWith(`${gone}/node_modules/`));

  it("should drop the explorer's dependency tree and recheck's Java and native agents", () => {
    for (const path of [
      'node_modules/react-aria',
      'node_modules/framer-motion',
      'node_modules/@graphiql/react',
      'node_modules/codemirror',
      'node_modules/recheck-jar',
      'node_modules/recheck-linux-x64',
    ]) {
      expect(removed(path), path).toBe(true);
    }
  });

  it('should keep of graphiql, react and react-dom their package.json and the files /graphiql serves', () => {
    expect(plan.trim).toEqual({
      'node_modules/graphiql': ['package.json', 'graphiql.min.js', 'graphiql.min.css'],
      'node_modules/react': ['package.json', 'umd/react.production.min.js'],
      'node_modules/react-dom': ['package.json', 'umd/react-dom.production.min.js'],
    });
    const served = GRAPHIQL_PACKAGE_FILES.map((f) => `node_modules/${f.packageName}/${f.file}`);
    const kept = Object.entries(plan.trim).flatMap(([path, files]) => files.map((f) => `${path}/${f}`));
    expect(kept).toEqual(expect.arrayContaining(served));
  });

  it('should keep every other production dependency with all it depends on', () => {
    const explorer = new Set(GRAPHIQL_PACKAGE_FILES.map((f) => f.packageName));
    for (const name of Object.keys(pkg.dependencies).filter((n) => !explorer.has(n))) {
      expect(removed(`node_modules/${name}`), name).toBe(false);
    }
    // Closed: no kept package depends on a removed one (recheck's agents aside, never loaded).
    const kept = production.filter((path) => !removed(path) && !(path in plan.trim));
    for (const path of kept) {
      const entry = lock.packages[path] ?? {};
      for (const name of Object.keys({ ...entry.dependencies, ...entry.peerDependencies })) {
        const candidates = [`${path}/node_modules/${name}`, `node_modules/${name}`];
        const found = candidates.find((c) => lock.packages[c] !== undefined);
        if (found !== undefined) expect(removed(found), `${path} -> ${name}`).toBe(false);
      }
    }
    expect(kept).toContain('node_modules/recheck');
    expect(kept).toContain('node_modules/synckit');
  });
});

describe('the pruned tree at work', () => {
  let image: string;
  let gateway: RunningProcess | undefined;
  let pruneOutput: string;

  beforeAll(async () => {
    image = mkdtempSync(join(tmpdir(), 'gateway-runtime-modules-'));
    const modules = join(image, 'node_modules');
    mkdirSync(modules);
    // What `npm ci --omit=dev` installs, as hard links (nothing copied; the prune only unlinks and rewrites).
    const installed = JSON.parse(readFileSync(join(ROOT, 'node_modules/.package-lock.json'), 'utf8')) as {
      packages: Record<string, LockedPackage>;
    };
    const topLevel = Object.keys(installed.packages).filter(
      (p) => /^node_modules\/(@[^/]+\/)?[^/@]+$/.test(p) && installed.packages[p]?.dev !== true,
    );
    const byFolder = Map.groupBy(topLevel, (p) => join(image, p, '..'));
    for (const [folder, paths] of byFolder) {
      mkdirSync(folder, { recursive: true });
      await run('cp', ['-al', ...paths.map((p) => join(ROOT, p)), folder]);
    }
    cpSync(join(ROOT, 'node_modules/.package-lock.json'), join(modules, '.package-lock.json'));
    cpSync(join(ROOT, 'package.json'), join(image, 'package.json'));
    cpSync(join(ROOT, 'schema'), join(image, 'schema'), { recursive: true });
    // As the Dockerfile runs it, then the bundle as the build stage makes it.
    ({ stdout: pruneOutput } = await run(process.execPath, ['scripts/prune-runtime-modules.ts', image], {
      cwd: ROOT,
    }));
    await run(process.execPath, ['scripts/build.ts', `--outdir=${join(image, 'dist')}`], { cwd: ROOT });
  }, 120_000);
  afterAll(async () => {
    if (gateway !== undefined) await stopProcess(gateway, 0, 'SIGKILL');
    rmSync(image, { recursive: true, force: true });
  });

  it('should leave out the explorer tree and the agents, and trim the explorer to its files', () => {
    expect(pruneOutput).toMatch(/pruned \d+ packages/);
    for (const gone of [
      'react-aria',
      '@react-aria',
      'framer-motion',
      'recheck-jar',
      'recheck-linux-x64',
      '.bin',
    ]) {
      expect(existsSync(join(image, 'node_modules', gone)), gone).toBe(false);
    }
    expect(readdirSync(join(image, 'node_modules/graphiql')).sort()).toEqual([
      'graphiql.min.css',
      'graphiql.min.js',
      'package.json',
    ]);
  });

  it("should find a ReDoS with recheck's pure-JavaScript checker, without its agents", async () => {
    const { stdout } = await run(
      process.execPath,
      ['-e', "console.log(require('recheck').checkSync('^(a+)+$', '').status)"],
      { cwd: image, env: { PATH: process.env.PATH ?? '', RECHECK_SYNC_BACKEND: 'pure' } },
    );
    expect(stdout.trim()).toBe('vulnerable');
  });

  it('should start the bundle in production with the explorer on, serving GraphiQL and GraphQL', async () => {
    const started = await startImageGateway(image, ['dist/main.js'], { LANDING_PAGE: 'true' }, 50_000);
    gateway = started.gateway;
    const { base } = started;
    expect((await fetch(`${base}/graphiql`)).status).toBe(200);
    for (const asset of ['react.js', 'react-dom.js', 'graphiql.js', 'graphiql.css']) {
      const answer = await fetch(`${base}/graphiql/assets/${asset}`);
      expect(answer.status, asset).toBe(200);
      expect((await answer.arrayBuffer()).byteLength, asset).toBeGreaterThan(1000);
    }
    const answer = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(await answer.json()).toEqual({ data: { __typename: 'Query' } });
    expect(gateway.stderr()).toBe('');
    expect((await stopProcess(gateway, 30_000)).code).toBe(0);
  }, 60_000);
});
