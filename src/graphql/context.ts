/**
 * The per-request context: the session opened from `Authorization`, and fresh DataLoaders created on first
 * use (a request without a session never pays for them).
 */
import { randomUUID } from 'node:crypto';
import type { LoginProtection } from '../auth/login-protection.ts';
import type { GatewayConfig } from '../config/gateway-config.ts';
import type { ReplacingTypes } from '../upstream/dialect/writes/replacing-types.ts';
import type { RecentWrites } from '../upstream/dialect/writes/recent-writes.ts';
import type { SessionClaims, SessionSealer } from '../auth/session.ts';
import { userKeyOf } from '../auth/user-key.ts';
import {
  createLoaders,
  idsPerBatch,
  MAX_CRITERION_LENGTH,
  type Loaders,
} from '../upstream/batching/loaders.ts';
import type { PatternGuard } from '../upstream/pattern-guard/pattern-guard.ts';
import type { TenantMismatch } from '../upstream/dialect/answers/verify-tenant.ts';
import type { UpstreamCredentials, UpstreamReads, UpstreamWrites } from '../upstream/client/types.ts';
import type { SessionRevocations } from '../auth/session-revocations.ts';
import { unauthenticated, type NoSessionReason } from '../errors/graphql-errors.ts';
import type { CpuShare } from '../http/capacity/cpu-share.ts';
import { RequestCache } from '../cache/request-cache.ts';
import type { ResponseCache } from '../cache/response-cache.ts';

/** What every request shares: built once at start. */
export interface GatewayServices {
  config: GatewayConfig;
  /** Writes and logins: never coalesced. Has no reads, so nothing can read past the loaders through it. */
  writes: UpstreamWrites;
  /** Reads, for the loaders: identical in-flight reads of one session share one call. Has no writes. */
  reads: UpstreamReads;
  sessions: SessionSealer;
  /** Sessions logged out or rejected by the upstream, consulted after the sealer's opened-session cache. */
  revocations: SessionRevocations;
  /** Guards `login`: failure counting, blocks, the timing floor. */
  loginProtection: LoginProtection;
  /** Checks every caller-written `matches` pattern before it can reach the upstream. */
  patternGuard: PatternGuard;
  /** Each caller's share of the gateway's own work: requests are admitted through it (`graphql-route.ts`). */
  cpuShare: CpuShare;
  onLoaderBatch?: (operation: string, size: number) => void;
  /** Told of a record of another organization answered to a session (a security event: logged, counted). */
  onTenantMismatch?: (mismatch: TenantMismatch) => void;
  /** Types whose save with `_id` was seen to replace the object (`replacing-types.ts`). Default: none kept. */
  replacingTypes?: ReplacingTypes;
  /** The fields this gateway wrote to each object a moment ago (`recent-writes.ts`). Default: none kept. */
  recentWrites?: RecentWrites;
  /** The response cache (`CACHE=on`); `undefined`: every read goes upstream. */
  cache?: ResponseCache | undefined;
}

/** An authenticated request's view: who, with which credentials, reading through which loaders. */
export interface AuthenticatedContext {
  session: SessionClaims;
  credentials: UpstreamCredentials;
  loaders: Loaders;
  /** The write handle (`GatewayServices.writes`), for the object service's saves and updates. */
  writes: UpstreamWrites;
  /** What a save naming an existing `_id` does upstream (`UPSTREAM_SAVE_WITH_ID`): the object service merges when it replaces. */
  saveWithId: GatewayConfig['saveWithId'];
  /** How update takes its fields (`UPSTREAM_UPDATE_FIELDS`): with `params`, every value travels as text. */
  updateFields: GatewayConfig['updateFields'];
  /** How long a write's read-back may wait for the upstream's reads to show it (`UPSTREAM_WRITE_READ_BACK_MS`). */
  writeReadBackMillis: GatewayConfig['writeReadBackMillis'];
  /** Types seen to replace on a save with `_id`, whatever `saveWithId` says (shared by every request). */
  replacingTypes: ReplacingTypes | undefined;
  /** The fields this gateway wrote to each object a moment ago, which a read before a save must show. */
  recentWrites: RecentWrites | undefined;
  /** This request's view of the response cache, also held by its loaders; `undefined` when it is off for the request. */
  cache: RequestCache | undefined;
}

/**
 * The count of one answer's characters as its resolvers return them (`src/limits/answer-size/answer-meter.ts`), set at
 * admission by the answer size limit; each method throws the request's refusal once the answer would pass
 * its bound, so an answer too large is never serialized.
 */
export interface AnswerMeter {
  /** Counts a record of `objectName` answered whole (`data`), and learns what its type's records weigh. */
  chargeRecord(objectName: string, record: object): void;
  /** Counts a value the answer holds (a record's field, a metadata's value). */
  charge(value: unknown): void;
}

/** The GraphQL context type (codegen `contextType`). */
export interface GraphQLContext {
  services: GatewayServices;
  requestId: string;
  /** The client's address: the direct peer, or `x-forwarded-for` when that peer is a trusted proxy. */
  clientIp: string;
  /** `null` when the request carries no valid, live session token. */
  session: SessionClaims | null;
  /** Why {@link session} is `null` (`undefined` when there is a session). */
  noSessionReason: NoSessionReason | undefined;
  /**
   * The session, its upstream credentials and this request's loaders, for every resolver that reads or
   * writes; throws `UNAUTHENTICATED` (with the {@link noSessionReason}) without a valid, live session.
   */
  requireSession(): AuthenticatedContext;
  /** The answer's meter, once the request is admitted (`undefined` before, and outside Apollo). */
  answerMeter: AnswerMeter | undefined;
  /** The request's view of the response cache, once a resolver asked for the session (`undefined` before, or off). */
  readonly responseCache: RequestCache | undefined;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

// One credentials object per opened session (the sealer caches the claims object), so that what is keyed
// by it downstream (the coalescing key) is computed once per session, not once per request. A memo only:
// entries go with their sessions.
const credentialsOfSession = new WeakMap<SessionClaims, UpstreamCredentials>();

function credentialsOf(session: SessionClaims): UpstreamCredentials {
  let credentials = credentialsOfSession.get(session);
  if (credentials === undefined) {
    credentials = Object.freeze({
      username: session.username,
      apiToken: session.apiToken,
      applicationCode: session.applicationCode,
      organizationCode: session.organizationCode ?? undefined,
      sessionCookie: session.sessionCookie,
      // Every share and vote downstream is the account's, whichever name it logged in with.
      userKey: userKeyOf(session),
    });
    credentialsOfSession.set(session, credentials);
  }
  return credentials;
}

/**
 * The request's view of the response cache: none for a session without an organization (whose tenant the
 * gateway does not know, so no entry could be scoped to it) nor without its account key.
 */
function requestCacheOf(
  cache: ResponseCache | undefined,
  credentials: UpstreamCredentials,
): RequestCache | undefined {
  const { organizationCode, userKey, applicationCode } = credentials;
  if (
    cache === undefined ||
    organizationCode === undefined ||
    organizationCode === '' ||
    userKey === undefined
  ) {
    return undefined;
  }
  return new RequestCache(cache, { applicationCode, organizationCode, userKey });
}

/** Builds the context of one request from its `Authorization` header. */
export async function createContext(
  services: GatewayServices,
  authorization: string | undefined,
  requestId: string = randomUUID(),
  clientIp = 'unknown',
): Promise<GraphQLContext> {
  const token = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
  // The live session of the token, or why there is none (missing, invalid, expired, logged out, or
  // rejected): the claims themselves or the reason's string, opened here without a second async frame.
  if (token === undefined) return new RequestContext(services, requestId, clientIp, 'missing');
  const opening = await services.sessions.inspect(token);
  if (opening.status !== 'open') return new RequestContext(services, requestId, clientIp, opening.status);
  const dead = await services.revocations.reasonOf(opening.claims);
  return new RequestContext(services, requestId, clientIp, dead ?? opening.claims);
}

/**
 * One request's context: a class, so that `requireSession` is one method on the prototype, not a closure
 * per request, and the loaders' settings are read from the config when a resolver first needs them.
 */
class RequestContext implements GraphQLContext {
  services: GatewayServices;
  requestId: string;
  clientIp: string;
  session: SessionClaims | null;
  noSessionReason: NoSessionReason | undefined;
  /**
   * A plain (TypeScript-private) property, not a `#` field: Apollo clones every context onto its prototype
   * with `Object.assign` (`internalExecuteOperation`), which copies own properties and no `#` field.
   */
  private authenticated: AuthenticatedContext | undefined = undefined;
  answerMeter: AnswerMeter | undefined = undefined;

  constructor(
    services: GatewayServices,
    requestId: string,
    clientIp: string,
    opened: SessionClaims | NoSessionReason,
  ) {
    this.services = services;
    this.requestId = requestId;
    this.clientIp = clientIp;
    const reason = typeof opened === 'string';
    this.session = reason ? null : opened;
    this.noSessionReason = reason ? opened : undefined;
  }

  get responseCache(): RequestCache | undefined {
    return this.authenticated?.cache;
  }

  requireSession(): AuthenticatedContext {
    if (this.authenticated) return this.authenticated;
    const { session, services } = this;
    if (session === null) throw unauthenticated(this.noSessionReason ?? 'invalid');
    const credentials = credentialsOf(session);
    const { config } = services;
    const cache = requestCacheOf(services.cache, credentials);
    this.authenticated = {
      cache,
      session,
      credentials,
      writes: services.writes,
      saveWithId: config.saveWithId,
      updateFields: config.updateFields,
      writeReadBackMillis: config.writeReadBackMillis,
      replacingTypes: services.replacingTypes,
      recentWrites: services.recentWrites,
      loaders: createLoaders({
        client: services.reads,
        credentials,
        matchesMode: config.matchesMode,
        maxBatchSize: idsPerBatch(config.upstreamMaxPageSize),
        matchesCase: config.matchesCase,
        maxIdLength: config.upstreamRequestLimits.maxIdLength,
        // The `_id` alternation travels in the URL: leave half of it for everything else.
        maxCriterionLength: Math.min(
          MAX_CRITERION_LENGTH,
          Math.floor(config.upstreamRequestLimits.maxUrlBytes / 2),
        ),
        onBatch: services.onLoaderBatch,
        tenantField: config.tenantField,
        onTenantMismatch: services.onTenantMismatch,
        cache,
      }),
    };
    return this.authenticated;
  }
}
