/**
 * Assembly step: what every request shares (`GatewayServices`): the upstream handles, sessions and their
 * revocations, and login protection, with Redis behind the last two when `REDIS_URL` is set.
 */
import { createReplacingTypes } from '../upstream/dialect/writes/replacing-types.ts';
import { createRecentWrites } from '../upstream/dialect/writes/recent-writes.ts';
import { CPU_SHARE } from '../config/defaults.ts';
import { userCpuCaller } from '../http/capacity/cpu-admission.ts';
import { createCpuShare } from '../http/capacity/cpu-share.ts';
import type { Logger } from 'pino';
import { createAccountLinks } from '../auth/account-links.ts';
import { createDeviceTokens } from '../auth/device-token.ts';
import { createLoginLimiter } from '../auth/login-limiter.ts';
import { createLoginProtection, type LoginProtection } from '../auth/login-protection.ts';
import { createLoginShare } from '../auth/login-share.ts';
import type { RedisGuard } from '../auth/redis/redis-guard.ts';
import { createSessionSealer } from '../auth/session.ts';
import { createSessionRevocations } from '../auth/session-revocations.ts';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { clientNetwork } from '../client-address/client-network.ts';
import type { GatewayServices } from '../graphql/context.ts';
import type { GatewayMetrics } from '../observability/metrics.ts';
import type { RequestScopes } from '../observability/request-scope.ts';
import { withCoalescing } from '../upstream/batching/coalesce.ts';
import { createPatternGuard } from '../upstream/pattern-guard/pattern-guard.ts';
import type { UpstreamClient } from '../upstream/client/types.ts';
import type { Analyser } from '../upstream/pattern-guard/redos-analyser.ts';
import { cachePoliciesOf, cachePolicyOverrides } from '../config/cache-settings.ts';
import { createMemoryVersions, createRedisVersions } from '../cache/cache-versions.ts';
import { invalidatingWrites } from '../cache/invalidating-writes.ts';
import { createSharedEntries } from '../cache/shared-entries.ts';
import { CACHE_EVENTS, createResponseCache, type ResponseCache } from '../cache/response-cache.ts';
import { buildTypedApi } from '../typed/build-typed-api.ts';
import { OBJECTS_DIR, readTypeDefs } from './build-schema.ts';

/** What {@link createServices} builds on. */
export interface ServicesOptions {
  config: GatewayConfig;
  /** The upstream stack (`createUpstreamStack`). */
  upstream: UpstreamClient;
  logger: Logger;
  metrics: GatewayMetrics;
  /** Shared stores, behind their guard; `undefined` keeps everything in this replica's memory. */
  redis: RedisGuard | undefined;
  /** The pattern guard's ReDoS checker (`createRecheckAnalyser`), started by the gateway before it listens. */
  patternAnalyser?: Analyser | undefined;
  /** The request scopes: a failed login marks its request's for the log's summary. */
  scopes?: RequestScopes | undefined;
}

/** Builds the services. */
export function createServices(options: ServicesOptions): GatewayServices {
  const { config, upstream, logger, metrics, redis } = options;
  const revocations = createSessionRevocations({
    redis,
    maxEntriesPerUser: config.sessionRevocationsPerUser,
    maxLocalEntries: config.sessionRevocationsMax,
    onRefill: (report) => {
      logger.info(report, 'session revocations written to redis again');
    },
  });
  metrics.trackCapacity('session_revocations', () => revocations.localSize(), config.sessionRevocationsMax);
  const cpuShare = createCpuShare(CPU_SHARE);
  metrics.trackCapacity('cpu_waiting', () => cpuShare.counts().waiting, CPU_SHARE.maxWaiting);
  const cache = config.cache.mode === 'on' ? createGatewayCache(options) : undefined;
  return {
    config,
    writes: cache === undefined ? upstream : invalidatingWrites(upstream, cache),
    cache,
    reads: withCoalescing(upstream),
    sessions: createSessionSealer({
      secret: config.sessionSecret,
      previousSecret: config.sessionSecretPrevious,
      ttlSeconds: config.sessionTtlSeconds,
    }),
    revocations,
    loginProtection: createGatewayLoginProtection(options),
    patternGuard: createPatternGuard({
      maxLength: config.maxPatternLength,
      analyser: options.patternAnalyser,
      // An analysis runs on the checker's thread for its caller: charged to that user's share.
      onAnalysis: (caller, millis) => {
        if (caller !== undefined) cpuShare.charge(userCpuCaller(caller), millis);
      },
    }),
    replacingTypes: createReplacingTypes(),
    recentWrites: createRecentWrites(),
    cpuShare,
    onLoaderBatch: (loader, size) => {
      metrics.observeLoaderBatch(loader, size);
    },
    onTenantMismatch: (mismatch) => {
      metrics.countTenantMismatch(mismatch.operation);
      // A security event: another organization's record reached the gateway (it is not served).
      logger.error(
        { event: 'tenant_mismatch', ...mismatch },
        "upstream answered a record of another organization than the session's; not served",
      );
    },
  };
}

/**
 * The response cache (`CACHE=on`): the policies the typed SDL declares (`@cacheControl`) under
 * `CACHE_POLICIES`, the versions in Redis when the gateway has one, entries in this replica's memory.
 */
function createGatewayCache({ config, logger, metrics, redis }: ServicesOptions): ResponseCache {
  // The SDL as the schema reads it (`build-schema.ts`); a mistake in it stops the start there too.
  const typed = buildTypedApi({ dir: config.objectTypesDir ?? OBJECTS_DIR, baseTypeDefs: readTypeDefs() });
  const policies = cachePoliciesOf(
    typed.specs.map((spec) => [spec.objectName, spec.cache] as const),
    cachePolicyOverrides(config.cache.policies),
  );
  // Bound below: a replacement Redis missed drops this replica's entries, which the old version still reaches.
  let dropEntries: () => void = () => undefined;
  const versions =
    redis === undefined
      ? createMemoryVersions()
      : createRedisVersions({
          redis,
          onUnshared: () => {
            dropEntries();
            logger.debug(
              {},
              'a cache version was not written to redis; entries dropped, sent again when it is back',
            );
          },
        });
  const cache = createResponseCache({
    policies,
    versions,
    maxBytes: config.cache.maxBytes,
    maxBytesPerUser: config.cache.maxBytesPerUser,
    maxBytesPerTenant: config.cache.maxBytesPerTenant,
    staleIfErrorSeconds: config.cache.staleIfErrorSeconds,
    shared:
      redis === undefined || config.cache.redisMaxBytes === 0
        ? undefined
        : { entries: createSharedEntries({ redis }), maxBytes: config.cache.redisMaxBytes },
    onEvent: (event, objectName) => {
      metrics.countCacheEvent(objectName, event);
    },
  });
  dropEntries = () => {
    cache.clear();
  };
  // While Redis was away a write through another replica may not have reached it, and this replica's
  // entries from before would read as current again: they go, and reads refill them.
  redis?.onReturn(dropEntries);
  metrics.trackCache({
    objectTypes: [...policies.keys()],
    events: CACHE_EVENTS,
    bytesByType: () => cache.bytesByType(),
  });
  logger.info(
    {
      cachedTypes: Object.fromEntries(policies),
      versions: redis === undefined ? 'memory' : 'redis',
      entries: redis === undefined || config.cache.redisMaxBytes === 0 ? 'memory' : 'memory and redis',
    },
    'response cache on',
  );
  return cache;
}

function createGatewayLoginProtection({
  config,
  logger,
  metrics,
  redis,
  scopes,
}: ServicesOptions): LoginProtection {
  const limiter = createLoginLimiter({
    ...config.login,
    redis,
    onBlock: (limit) => {
      metrics.countLoginBlock(limit);
      // Called once per block started, inside the login's request: its line says so, once.
      const scope = scopes?.current();
      if (scope !== undefined) (scope.loginBlocks ??= []).push(limit);
    },
  });
  metrics.trackCapacity('login_counters', () => limiter.trackedCounters(), config.login.maxTrackedCounters);
  return createLoginProtection({
    limiter,
    share: createLoginShare(config.login),
    links: createAccountLinks({
      redis,
      ttlSeconds: config.login.deviceTtlSeconds,
      // Per login: the guard logs Redis's outages once each; this says only which call missed it.
      onStoreError: (error) => {
        logger.debug({ cause: causeOf(error) }, "login link store failed; this replica's own links answer");
      },
    }),
    devices: createDeviceTokens({
      secret: config.sessionSecret,
      previousSecret: config.sessionSecretPrevious,
      ttlSeconds: config.login.deviceTtlSeconds,
    }),
    minFailureMillis: config.login.minFailureMillis,
    onFailedLogin: ({ clientIp, reason, retryAfterSeconds }) => {
      const scope = scopes?.current();
      if (scope !== undefined) {
        scope.failedLogin = { clientNetwork: clientNetwork(clientIp), reason, retryAfterSeconds };
      }
    },
    onStoreError: (error) => {
      logger.warn({ cause: causeOf(error) }, 'login limiter store failed');
    },
    onAccountLookupFailed: (error) => {
      logger.warn(
        { err: error },
        "a JSON login's account lookup by the form login failed; its name stands for it",
      );
    },
  });
}

/** An error's short cause for a log line (its code, else its message): no stack per request. */
function causeOf(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.message : String(error);
}
