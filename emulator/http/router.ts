import type { WireOperation } from '../../src/upstream/client/wire.ts';

/** The emulator's own endpoints, under `/__emulator/` so that they never shadow a path of the real service. */
export type ControlName = 'healthz' | 'stats' | 'statsReset' | 'faults';

/** Where a request goes: one of the seven upstream operations, or a control endpoint of the emulator. */
export type Route =
  | { kind: 'operation'; operation: WireOperation; method: 'GET' | 'POST'; pathId: string | undefined }
  | { kind: 'control'; name: ControlName; methods: readonly string[] };

const FIXED = new Map<string, Route>([
  ['/v1/user/login', { kind: 'operation', operation: 'loginJson', method: 'POST', pathId: undefined }],
  ['/app/login.jsp', { kind: 'operation', operation: 'loginForm', method: 'POST', pathId: undefined }],
  [
    '/studio/jsonp/getObject',
    { kind: 'operation', operation: 'getObject', method: 'GET', pathId: undefined },
  ],
  ['/studio/jsonp/getAll', { kind: 'operation', operation: 'getAll', method: 'GET', pathId: undefined }],
  ['/studio/jsonp/save', { kind: 'operation', operation: 'save', method: 'POST', pathId: undefined }],
  ['/__emulator/healthz', { kind: 'control', name: 'healthz', methods: ['GET'] }],
  ['/__emulator/stats', { kind: 'control', name: 'stats', methods: ['GET'] }],
  ['/__emulator/stats/reset', { kind: 'control', name: 'statsReset', methods: ['POST'] }],
  ['/__emulator/faults', { kind: 'control', name: 'faults', methods: ['GET', 'POST'] }],
]);

const WITH_ID: readonly (readonly [string, WireOperation, 'GET' | 'POST'])[] = [
  ['/studio/jsonp/metadata/get/', 'metadata', 'GET'],
  ['/studio/jsonp/update/', 'update', 'GET'],
];

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Routes a request path (without its query), with or without a trailing slash. */
export function matchRoute(path: string): Route | undefined {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const fixed = FIXED.get(trimmed);
  if (fixed !== undefined) return fixed;
  for (const [prefix, operation, method] of WITH_ID) {
    if (!trimmed.startsWith(prefix)) continue;
    const segment = trimmed.slice(prefix.length);
    if (segment === '' || segment.includes('/')) return undefined;
    return { kind: 'operation', operation, method, pathId: decodeSegment(segment) };
  }
  return undefined;
}
