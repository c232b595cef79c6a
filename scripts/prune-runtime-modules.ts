/**
 * `node scripts/prune-runtime-modules.ts <app dir>`: the Dockerfile's dependencies stage, right after
 * `npm ci --omit=dev`, removes from `<app dir>/node_modules` what a production start never loads
 * (`support/runtime-modules.ts` says what and why).
 */
import { resolve } from 'node:path';
import { pruneRuntimeModules } from '../support/runtime-modules.ts';

const appDir = resolve(process.argv[2] ?? '.');
const plan = pruneRuntimeModules(appDir);
console.log(
  `pruned ${plan.remove.length} packages, trimmed ${Object.keys(plan.trim).join(', ')} to their served files`,
);
