/**
 * Reads a V8 `.cpuprofile` (from `node --cpu-prof`) and lists where the time went: the functions with the
 * most self time, the functions with the most total (inclusive) time, and self time per area (a package
 * under node_modules, a source file of ours, Node's internals, GC). Used by `profile.ts`; also runs alone:
 * `npx node bench/cpuprofile-top.ts <file.cpuprofile> [--top=30]`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** One row of a ranking: a name and its time in milliseconds and as a share of the busy time. */
export interface Ranked {
  name: string;
  millis: number;
  share: number;
}

/** The rankings of one profile. Shares are of the busy time (`(idle)` left out). */
export interface ProfileSummary {
  totalMillis: number;
  idleMillis: number;
  selfByFunction: Ranked[];
  totalByFunction: Ranked[];
  selfByArea: Ranked[];
  /** Self time per area, with Node internals, native code and GC-free builtins charged to the nearest caller of ours or of a package. */
  chargedByArea: Ranked[];
}

function isCpuProfile(value: unknown): value is CpuProfile {
  if (typeof value !== 'object' || value === null) return false;
  const profile = value as Record<string, unknown>;
  return Array.isArray(profile.nodes) && Array.isArray(profile.samples) && Array.isArray(profile.timeDeltas);
}

/** Where a script lives, shortened: `undici`, `@apollo/server`, `src/upstream/client/answers/jsonp.ts`, `node:internal`. */
export function areaOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node:internal';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + '/node_modules/'.length).split('/');
    return parts[0]?.startsWith('@') === true ? `${parts[0]}/${parts[1] ?? ''}` : (parts[0] ?? url);
  }
  const ours = /\/(src|bench)\/(.*)$/.exec(url);
  return ours ? `${ours[1] ?? ''}/${ours[2] ?? ''}` : url;
}

function frameName(frame: CallFrame): string {
  const area = areaOf(frame.url, frame.functionName);
  const name = frame.functionName === '' ? '(anonymous)' : frame.functionName;
  return frame.url === '' ? name : `${name} ${area}:${frame.lineNumber + 1}`;
}

function rank(times: Map<string, number>, busyMillis: number, top: number): Ranked[] {
  return [...times.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, millis]) => ({ name, millis, share: busyMillis > 0 ? millis / busyMillis : 0 }));
}

/** Summarises a parsed profile; `top` rows per ranking. */
export function summariseProfile(value: unknown, top = 30): ProfileSummary {
  if (!isCpuProfile(value)) throw new Error('not a V8 CPU profile (expected nodes, samples, timeDeltas)');
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const node of value.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const selfByFunction = new Map<string, number>();
  const totalByFunction = new Map<string, number>();
  const selfByArea = new Map<string, number>();
  const chargedByArea = new Map<string, number>();
  let totalMillis = 0;
  let idleMillis = 0;
  const add = (map: Map<string, number>, key: string, millis: number): void => {
    map.set(key, (map.get(key) ?? 0) + millis);
  };
  for (const [index, sample] of value.samples.entries()) {
    // timeDeltas[i] is the time before sample i; the sample stands for the interval that follows, but
    // over thousands of samples the difference is noise.
    const millis = (value.timeDeltas[index + 1] ?? value.timeDeltas[index] ?? 0) / 1000;
    const node = byId.get(sample);
    if (node === undefined) continue;
    totalMillis += millis;
    if (node.callFrame.functionName === '(idle)') {
      idleMillis += millis;
      continue;
    }
    add(selfByFunction, frameName(node.callFrame), millis);
    add(selfByArea, areaOf(node.callFrame.url, node.callFrame.functionName), millis);
    const seen = new Set<string>();
    let charged: string | undefined;
    for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)?.callFrame;
      if (frame === undefined || frame.functionName === '(root)') continue;
      const area = areaOf(frame.url, frame.functionName);
      if (
        charged === undefined &&
        area !== 'node:internal' &&
        area !== '(native)' &&
        !area.startsWith('wasm')
      )
        charged = area;
      const name = frameName(frame);
      if (seen.has(name)) continue;
      seen.add(name);
      add(totalByFunction, name, millis);
    }
    add(chargedByArea, charged ?? 'node:internal', millis);
  }
  const busy = totalMillis - idleMillis;
  return {
    totalMillis,
    idleMillis,
    selfByFunction: rank(selfByFunction, busy, top),
    totalByFunction: rank(totalByFunction, busy, top),
    selfByArea: rank(selfByArea, busy, top),
    chargedByArea: rank(chargedByArea, busy, top),
  };
}

/** The summary as text: three ranked lists. */
export function formatSummary(summary: ProfileSummary): string {
  const rows = (title: string, ranked: Ranked[]): string =>
    [
      title,
      ...ranked.map(
        (row) =>
          `${row.millis.toFixed(0).padStart(8)} ms ${(row.share * 100).toFixed(1).padStart(5)}%  ${row.name}`,
      ),
    ].join('\n');
  const busy = summary.totalMillis - summary.idleMillis;
  return [
    `profiled ${(summary.totalMillis / 1000).toFixed(1)} s, busy ${(busy / 1000).toFixed(1)} s (shares are of busy time)`,
    rows('\nself time by area:', summary.selfByArea),
    rows(
      '\nself time by area, Node internals and native code charged to their caller:',
      summary.chargedByArea,
    ),
    rows('\nself time by function:', summary.selfByFunction),
    rows('\ntotal (inclusive) time by function:', summary.totalByFunction),
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (file === undefined) {
    process.stderr.write('usage: npx node bench/cpuprofile-top.ts <file.cpuprofile> [--top=30]\n');
    process.exit(2);
  }
  const topFlag = process.argv.find((arg) => arg.startsWith('--top='));
  const top = topFlag === undefined ? 30 : Number(topFlag.slice('--top='.length));
  console.log(formatSummary(summariseProfile(JSON.parse(readFileSync(file, 'utf8')), top)));
}
