/**
 * The settings of sessions and logins: the upstream application, session keys and lifetimes, which
 * organizations a login may choose, and login protection. Each field is one setting (`setting.ts`),
 * written here only.
 */
import { z } from 'zod';
import { int, organizationCodes } from './parsers.ts';
import { setting } from './setting.ts';

const secret = z.string().min(32, 'must be at least 32 characters').optional();

/** The sessions' and logins' settings, shaped as `GatewayConfig` reads them. */
export const AUTH_SETTINGS = {
  // Used with the embedded emulator only: with a real upstream it is required (`settings-problems.ts`).
  applicationCode: setting(
    'APPLICATION_CODE',
    z.string().min(1).default('demo'),
    'The upstream application.',
  ),
  sessionSecret: setting(
    'SESSION_SECRET',
    secret,
    'Raw secret; only `session.ts` derives the key from it. Never logged. Unset = random per start.',
  ),
  sessionSecretPrevious: setting(
    'SESSION_SECRET_PREVIOUS',
    secret,
    'The secret being rotated out; its tokens still open, none is sealed. Never logged.',
  ),
  sessionTtlSeconds: setting(
    'SESSION_TTL_SECONDS',
    int(60, 30 * 24 * 3600).default(28_800),
    'Lifetime of new sessions.',
  ),
  sessionRevocationsPerUser: setting(
    'SESSION_REVOCATIONS_PER_USER',
    int(1, 1_000_000).default(1_000),
    'Logged-out sessions of one user listed one by one before they are folded.',
  ),
  sessionRevocationsMax: setting(
    'SESSION_REVOCATIONS_MAX',
    int(1_000, 10_000_000).default(100_000),
    'Logged-out sessions of all users listed in this process.',
  ),
  allowedOrganizationCodes: setting(
    'ALLOWED_ORGANIZATION_CODES',
    organizationCodes.default([]),
    'The organizations a login may choose; empty = any well-formed code.',
  ),
  loginMethod: setting(
    'LOGIN_METHOD',
    z.enum(['JSON', 'FORM']).default('JSON'),
    'The login used when `login` names no `method`.',
  ),
  redisUrl: setting(
    'REDIS_URL',
    z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
    'Where login counters and revocations are shared by replicas. Never logged.',
  ),
  redisCommandTimeoutMillis: setting(
    'REDIS_COMMAND_TIMEOUT_MS',
    int(10, 10_000).default(150),
    'How long one Redis command may take before this replica answers without it; a few in a row bypass Redis.',
  ),
  /** Login protection; see `src/auth/login-limiter.ts`. */
  login: {
    maxConsecutiveFailures: setting(
      'LOGIN_MAX_CONSECUTIVE_FAILURES',
      int(1, 1_000_000).default(10),
      'Failures in a row per username + client IP, or per known device.',
    ),
    blockSeconds: setting(
      'LOGIN_BLOCK_SECONDS',
      int(1, 30 * 24 * 3600).default(3600),
      'Length of a block, and of the per-account window.',
    ),
    maxFailuresPerUser: setting(
      'LOGIN_MAX_FAILURES_PER_USER',
      int(1, 1_000_000).default(100),
      'Failures of unknown clients per account per block window.',
    ),
    maxFailuresPerIp: setting(
      'LOGIN_MAX_FAILURES_PER_IP',
      int(1, 1_000_000).default(100),
      'Distinct accounts failing from one client IP (IPv6: one /64) per day.',
    ),
    maxTrackedCounters: setting(
      'LOGIN_MAX_TRACKED_COUNTERS',
      int(100, 10_000_000).default(50_000),
      'Failed-login counters this process makes, all kinds together.',
    ),
    maxPerMinutePerAddress: setting(
      'LOGIN_MAX_PER_MINUTE_PER_ADDRESS',
      int(1, 1_000_000).default(120),
      'Logins (successful ones too) started per client address (IPv6: per /64) per minute, in this replica.',
    ),
    maxPerMinutePerAccount: setting(
      'LOGIN_MAX_PER_MINUTE_PER_ACCOUNT',
      int(1, 1_000_000).default(30),
      'Logins (successful ones too) started per account per minute, in this replica.',
    ),
    maxConcurrentPerAddress: setting(
      'LOGIN_MAX_CONCURRENT_PER_ADDRESS',
      int(1, 10_000).default(8),
      'Logins in flight per client address (IPv6: per /64), in this replica.',
    ),
    maxConcurrentPerAccount: setting(
      'LOGIN_MAX_CONCURRENT_PER_ACCOUNT',
      int(1, 10_000).default(4),
      'Logins in flight per account, in this replica.',
    ),
    minFailureMillis: setting(
      'LOGIN_FAILURE_MIN_MS',
      int(0, 10_000).default(400),
      'The least time a failed login takes to answer.',
    ),
    // 90 days.
    deviceTtlSeconds: setting(
      'LOGIN_DEVICE_TTL_SECONDS',
      int(60, 400 * 24 * 3600).default(7_776_000),
      'Lifetime of device tokens and of username/mobile links.',
    ),
  },
} as const;
