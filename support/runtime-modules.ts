/**
 * The image's `node_modules`, less what a production start never loads: what
 * `scripts/prune-runtime-modules.ts` applies in the Dockerfile right after `npm ci --omit=dev`, and what
 * `test/deploy/runtime-modules.test.ts` checks.
 *
 * - **The explorer's UI** (GraphiQL 4 on React 18): the page at `/graphiql` (on only with `LANDING_PAGE`)
 *   serves four prebuilt files, GraphiQL's and React's UMD bundles (`src/http/graphiql.ts`). Those files and
 *   their packages' `package.json` stay, so the page still works when turned on; the packages' other builds
 *   and their whole dependency tree (react-aria, framer-motion, codemirror, … about 70 MB) go.
 * - **recheck's other backends**: the pattern checker runs recheck's pure-JavaScript build in a worker
 *   (`RECHECK_SYNC_BACKEND=pure`, `src/upstream/pattern-guard/recheck-worker-source.ts`), never its Java
 *   agent (`recheck-jar`, 23 MB) or native one (`recheck-linux-x64`, 29 MB), its optional dependencies.
 * - `node_modules/.bin`: nothing in the image runs a package's command.
 *
 * Everything else that the production dependencies reach is kept, found in npm's own record of what it
 * installed (`node_modules/.package-lock.json`) with Node's resolution (nested `node_modules` first).
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GRAPHIQL_PACKAGE_FILES } from '../src/http/graphiql.ts';

/** An installed package as npm's lockfile records it. */
export interface LockedPackage {
  dev?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** Optional dependencies never loaded: recheck's Java and native agents (every platform's). */
export const UNUSED_OPTIONAL = /^recheck-(jar|linux-|macos-|windows-)/;

/** What {@link planPrune} decides. */
export interface PrunePlan {
  /** Package paths (`node_modules/react-aria`) to delete whole. */
  remove: string[];
  /** Package paths to keep only these files of (relative to the package). */
  trim: Record<string, string[]>;
}

/** Where `name` resolves from the package at `from` (`''` for the application), among `installed`. */
function resolveFrom(installed: Set<string>, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (installed.has(candidate)) return candidate;
    if (base === '') return undefined;
    const parent = base.lastIndexOf('/node_modules/');
    base = parent < 0 ? '' : base.slice(0, parent);
  }
}

/**
 * Which installed packages (`packages`: the lockfile's, dev ones ignored) the image drops or trims, given
 * the application's production `dependencies`.
 */
export function planPrune(
  packages: Record<string, LockedPackage>,
  dependencies: readonly string[],
  explorerFiles: readonly { packageName: string; file: string }[] = GRAPHIQL_PACKAGE_FILES,
): PrunePlan {
  const installed = new Set(
    Object.keys(packages).filter((path) => path !== '' && packages[path]?.dev !== true),
  );
  const explorer = new Set(explorerFiles.map((f) => f.packageName));
  const kept = new Set<string>();
  const visit = (path: string | undefined) => {
    if (path === undefined || kept.has(path)) return;
    kept.add(path);
    const entry = packages[path] ?? {};
    const names = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}).filter((name) => !UNUSED_OPTIONAL.test(name)),
      ...Object.keys(entry.peerDependencies ?? {}),
    ];
    for (const name of names) visit(resolveFrom(installed, path, name));
  };
  for (const name of dependencies) if (!explorer.has(name)) visit(resolveFrom(installed, '', name));

  const trim: Record<string, string[]> = {};
  for (const { packageName, file } of explorerFiles) {
    const path = `node_modules/${packageName}`;
    if (kept.has(path)) continue;
    trim[path] = [...(trim[path] ?? ['package.json']), file];
  }
  const remove = [...installed].filter((path) => !kept.has(path) && !(path in trim));
  // A package inside a removed one goes with it.
  const removed = new Set(remove);
  const outermost = remove.filter((path) => {
    for (let i = path.lastIndexOf('/node_modules/'); i > 0; i = path.lastIndexOf('/node_modules/', i - 1)) {
      if (removed.has(path.slice(0, i)) || path.slice(0, i) in trim) return false;
    }
    return true;
  });
  return { remove: outermost.sort(), trim };
}

/** Applies {@link planPrune} to `<appDir>/node_modules`; answers the plan. */
export function pruneRuntimeModules(appDir: string): PrunePlan {
  const lock = JSON.parse(readFileSync(join(appDir, 'node_modules/.package-lock.json'), 'utf8')) as {
    packages: Record<string, LockedPackage>;
  };
  const pkg = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  const plan = planPrune(lock.packages, Object.keys(pkg.dependencies ?? {}));
  for (const path of plan.remove) rmSync(join(appDir, path), { recursive: true, force: true });
  for (const [path, keep] of Object.entries(plan.trim)) {
    const dir = join(appDir, path);
    const files = keep.map((file) => [file, readFileSync(join(dir, file))] as const);
    rmSync(dir, { recursive: true, force: true });
    for (const [file, content] of files) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), content);
    }
  }
  rmSync(join(appDir, 'node_modules/.bin'), { recursive: true, force: true });
  // Scope folders whose every package went (`@react-aria/`).
  const modules = join(appDir, 'node_modules');
  for (const scope of readdirSync(modules).filter((name) => name.startsWith('@'))) {
    if (readdirSync(join(modules, scope)).length === 0) rmSync(join(modules, scope), { recursive: true });
  }
  return plan;
}
