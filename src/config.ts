/**
 * Every setting of the gateway, read from the environment and validated once at start. A bad setting stops
 * the start with one clear line that names it (`loadConfig` throws a `ConfigError`).
 */
import { z } from 'zod';
import type { MatchesMode, PageStartMode } from './upstream/types.ts';

/** Where the upstream is: four base addresses, or the embedded emulator. */
export type UpstreamTarget =
  | { kind: 'remote'; apiUrl: string; baseUrl: string; studioUrl: string; serverUrl: string }
  | { kind: 'embedded'; emulatorPort: number };

/** The validated settings. Durations carry their unit in the name. */
export interface GatewayConfig {
  production: boolean;
  host: string;
  port: number;
  logLevel: string;
  upstream: UpstreamTarget;
  applicationCode: string;
  organizationCode: string | undefined;
  /** Raw secret; only `session.ts` derives the key from it. Never logged. `undefined` = random per start. */
  sessionSecret: string | undefined;
  sessionTtlSeconds: number;
  loginMethod: 'JSON' | 'FORM';
  matchesMode: MatchesMode;
  pageStartMode: PageStartMode;
  authErrorPattern: RegExp;
  maxPageSize: number;
  defaultPageSize: number;
  introspection: boolean;
  landingPage: boolean;
  upstreamConnectTimeoutMillis: number;
  upstreamHeadersTimeoutMillis: number;
  upstreamBodyTimeoutMillis: number;
  upstreamCallTimeoutMillis: number;
  upstreamConnections: number;
  requestTimeoutMillis: number;
  corsOrigins: string[];
}

/** A setting that failed validation; `message` is the one line to print. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const url = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const regex = z.string().transform((source, ctx) => {
  try {
    return new RegExp(source, 'i');
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a valid regular expression' });
    return z.NEVER;
  }
});

/**
 * A comma-separated list of exact origins (`scheme://host[:port]`). A path, a trailing slash or `*` would
 * silently never match a browser's `Origin` header (or match every site), so they stop the start instead.
 */
const origins = z.string().transform((list, ctx) => {
  const entries = list
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  for (const entry of entries) {
    if (!URL.canParse(entry) || new URL(entry).origin !== entry || !/^https?:/.test(entry)) {
      ctx.addIssue({
        code: 'custom',
        message: `"${entry}" is not an origin; list origins like http://localhost:5173, comma-separated`,
      });
      return z.NEVER;
    }
  }
  return entries;
});

const schema = z.object({
  NODE_ENV: z.string().optional(),
  HOST: z.string().min(1).optional(),
  PORT: int(0, 65_535).default(4000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  API_URL: url.optional(),
  BASE_URL: url.optional(),
  STUDIO_URL: url.optional(),
  SERVER_URL: url.optional(),
  EMULATOR_PORT: int(0, 65_535).default(4010),
  APPLICATION_CODE: z.string().min(1).optional(),
  ORGANIZATION_CODE: z.string().min(1).optional(),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SESSION_TTL_SECONDS: int(60, 30 * 24 * 3600).default(28_800),
  LOGIN_METHOD: z.enum(['JSON', 'FORM']).default('JSON'),
  UPSTREAM_MATCHES: z.enum(['regex', 'exact']).default('regex'),
  UPSTREAM_PAGE_START: z.enum(['page0', 'page1', 'offset']).default('page0'),
  UPSTREAM_AUTH_ERROR_PATTERN: regex.default(/token|credential|unauthori[sz]ed|session/i),
  MAX_PAGE_SIZE: int(1, 1000).default(100),
  DEFAULT_PAGE_SIZE: int(1, 1000).default(20),
  INTROSPECTION: bool.optional(),
  LANDING_PAGE: bool.optional(),
  UPSTREAM_CONNECT_TIMEOUT_MS: int(1, 600_000).default(2_000),
  UPSTREAM_HEADERS_TIMEOUT_MS: int(1, 600_000).default(5_000),
  UPSTREAM_BODY_TIMEOUT_MS: int(1, 600_000).default(5_000),
  UPSTREAM_CALL_TIMEOUT_MS: int(1, 600_000).default(10_000),
  UPSTREAM_CONNECTIONS: int(1, 1024).default(32),
  REQUEST_TIMEOUT_MS: int(1, 600_000).default(15_000),
  CORS_ORIGINS: origins.default([]),
});

const UPSTREAM_KEYS = ['API_URL', 'BASE_URL', 'STUDIO_URL', 'SERVER_URL'] as const;

/**
 * Reads and validates the settings.
 * @throws ConfigError naming the first bad setting.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const blankless = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(blankless);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = String(issue?.path[0] ?? 'settings');
    throw new ConfigError(`Invalid setting ${key}: ${issue?.message ?? 'invalid'}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const set = UPSTREAM_KEYS.filter((k) => e[k] !== undefined);
  if (set.length > 0 && set.length < UPSTREAM_KEYS.length) {
    const missing = UPSTREAM_KEYS.filter((k) => e[k] === undefined).join(', ');
    throw new ConfigError(
      `Invalid setting ${missing}: set all four upstream addresses, or none for the emulator`,
    );
  }
  const upstream: UpstreamTarget =
    e.API_URL && e.BASE_URL && e.STUDIO_URL && e.SERVER_URL
      ? {
          kind: 'remote',
          apiUrl: e.API_URL,
          baseUrl: e.BASE_URL,
          studioUrl: e.STUDIO_URL,
          serverUrl: e.SERVER_URL,
        }
      : { kind: 'embedded', emulatorPort: e.EMULATOR_PORT };
  if (upstream.kind === 'remote' && e.APPLICATION_CODE === undefined) {
    throw new ConfigError('Invalid setting APPLICATION_CODE: required when the upstream addresses are set');
  }
  if (production && e.SESSION_SECRET === undefined) {
    throw new ConfigError('Invalid setting SESSION_SECRET: required in production (at least 32 characters)');
  }
  if (e.DEFAULT_PAGE_SIZE > e.MAX_PAGE_SIZE) {
    throw new ConfigError('Invalid setting DEFAULT_PAGE_SIZE: must not exceed MAX_PAGE_SIZE');
  }
  return {
    production,
    host: e.HOST ?? '127.0.0.1',
    port: e.PORT,
    logLevel: e.LOG_LEVEL,
    upstream,
    applicationCode: e.APPLICATION_CODE ?? 'demo',
    organizationCode: e.ORGANIZATION_CODE ?? (upstream.kind === 'embedded' ? 'acme' : undefined),
    sessionSecret: e.SESSION_SECRET,
    sessionTtlSeconds: e.SESSION_TTL_SECONDS,
    loginMethod: e.LOGIN_METHOD,
    matchesMode: e.UPSTREAM_MATCHES,
    pageStartMode: e.UPSTREAM_PAGE_START,
    authErrorPattern: e.UPSTREAM_AUTH_ERROR_PATTERN,
    maxPageSize: e.MAX_PAGE_SIZE,
    defaultPageSize: e.DEFAULT_PAGE_SIZE,
    introspection: e.INTROSPECTION ?? !production,
    landingPage: e.LANDING_PAGE ?? !production,
    upstreamConnectTimeoutMillis: e.UPSTREAM_CONNECT_TIMEOUT_MS,
    upstreamHeadersTimeoutMillis: e.UPSTREAM_HEADERS_TIMEOUT_MS,
    upstreamBodyTimeoutMillis: e.UPSTREAM_BODY_TIMEOUT_MS,
    upstreamCallTimeoutMillis: e.UPSTREAM_CALL_TIMEOUT_MS,
    upstreamConnections: e.UPSTREAM_CONNECTIONS,
    requestTimeoutMillis: e.REQUEST_TIMEOUT_MS,
    corsOrigins: e.CORS_ORIGINS,
  };
}
