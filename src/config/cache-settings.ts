/**
 * The settings of the response cache (`src/cache/`, `docs/design.md`, "The response cache"). Each field is
 * one setting (`setting.ts`), written here only.
 */
import { z } from 'zod';
import { readCachePolicyEntry } from '../cache/cache-policy.ts';
import { int, list } from './parsers.ts';
import { setting } from './setting.ts';

/** `CACHE_POLICIES`: entries checked one by one, kept as written (the cache reads them, `cachePolicyOverrides`). */
const cachePolicies = list.transform((entries, ctx) => {
  for (const entry of entries) {
    const read = readCachePolicyEntry(entry);
    if ('problem' in read) {
      ctx.addIssue({ code: 'custom', message: read.problem });
      return z.NEVER;
    }
  }
  return entries;
});

/** The response cache's settings, shaped as `GatewayConfig` reads them. */
export const CACHE_SETTINGS = {
  cache: {
    mode: setting(
      'CACHE',
      z.enum(['on', 'off']).default('on'),
      '`on`: cache upstream reads of the types that declare `@cacheControl` (or `CACHE_POLICIES`); `off`: every read goes upstream.',
    ),
    policies: setting(
      'CACHE_POLICIES',
      cachePolicies.default([]),
      'Per object name, over the SDL: `com.example.LoanType=60:PUBLIC,com.example.Order=0` (maxAge seconds, scope PRIVATE unless PUBLIC; 0 = not cached).',
    ),
    // 16 MiB of the 256 MiB heap, counted in characters of JSON as the answer limits are.
    maxBytes: setting(
      'CACHE_MAX_BYTES',
      int(65_536, 16 * 1024 * 1024 * 1024).default(16_777_216),
      "Characters of JSON the cache holds in this replica's memory, all callers together.",
    ),
    maxBytesPerUser: setting(
      'CACHE_MAX_BYTES_PER_USER',
      int(1_024, 16 * 1024 * 1024 * 1024).default(1_048_576),
      "Of those, what one account's PRIVATE entries may hold; past it a read is answered, not stored.",
    ),
    maxBytesPerTenant: setting(
      'CACHE_MAX_BYTES_PER_TENANT',
      int(1_024, 16 * 1024 * 1024 * 1024).default(4_194_304),
      "Of those, what one organization's entries (PUBLIC and its accounts' PRIVATE) may hold.",
    ),
    redisMaxBytes: setting(
      'CACHE_REDIS_MAX_BYTES',
      int(0, 16 * 1024 * 1024 * 1024).default(0),
      "Characters of entries shared by the replicas through Redis (with REDIS_URL), the same shares per account and organization; 0 = each replica's entries stay its own.",
    ),
    staleIfErrorSeconds: setting(
      'CACHE_STALE_IF_ERROR_SECONDS',
      int(0, 86_400).default(300),
      'How long past its maxAge an entry is still served (marked stale) while the upstream is down or its breaker open; 0 = never.',
    ),
  },
} as const;
