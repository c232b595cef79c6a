/**
 * The problems of the settings that no single setting's schema can see: which settings production
 * requires, the upstream addresses' all-or-none rule (`presenceProblems`), and the rules between settings
 * (`crossProblems`). Each problem is one line naming one setting, so a start lists them all at once instead
 * of one failed start per missing setting.
 */
import { UPSTREAM_MAX_RESPONSE_BYTES, UPSTREAM_SMALL_ANSWER_BYTES } from './defaults.ts';
import type { GatewayConfig } from './gateway-config.ts';

/** The four upstream addresses: all of them, or none for the embedded emulator. */
const UPSTREAM_KEYS = ['API_URL', 'BASE_URL', 'STUDIO_URL', 'SERVER_URL'] as const;

/** One line of a refused start. */
export function settingProblem(key: string, message: string): string {
  return `Invalid setting ${key}: ${message}`;
}

/**
 * The presence problems of `env` (blank values already removed), one line each.
 *
 * In production: the four upstream addresses (unless `UPSTREAM=emulator` asks for the demo emulator),
 * `APPLICATION_CODE` and `ORGANIZATION_CODE` (a real upstream refuses a save without them; the organization
 * may instead come from each login, when `ALLOWED_ORGANIZATION_CODES` lists the ones to choose from) and
 * `SESSION_SECRET`. Anywhere: all four addresses or none, never with `UPSTREAM=emulator`, and with the
 * addresses an `APPLICATION_CODE`.
 */
export function presenceProblems(env: Readonly<Record<string, string>>): string[] {
  const problems: string[] = [];
  const production = env.NODE_ENV === 'production';
  const set = UPSTREAM_KEYS.filter((key) => env[key] !== undefined);
  const emulator = env.UPSTREAM === 'emulator';
  if (set.length > 0 && set.length < UPSTREAM_KEYS.length) {
    const missing = UPSTREAM_KEYS.filter((key) => env[key] === undefined).join(', ');
    problems.push(settingProblem(missing, 'set all four upstream addresses, or none for the emulator'));
  }
  if (emulator && set.length > 0) {
    problems.push(
      settingProblem(
        'UPSTREAM',
        `"emulator" cannot be combined with ${set.join(', ')}; unset one or the other`,
      ),
    );
  }
  // Production never runs on demo data by accident: the embedded emulator must be asked for by name.
  const remote = set.length > 0 || (production && !emulator);
  if (production && set.length === 0 && !emulator) {
    for (const key of UPSTREAM_KEYS) {
      problems.push(
        settingProblem(
          key,
          'required in production (or UPSTREAM=emulator to run on the demo emulator on purpose)',
        ),
      );
    }
  }
  if (remote && env.APPLICATION_CODE === undefined) {
    problems.push(
      settingProblem(
        'APPLICATION_CODE',
        production ? 'required in production' : 'required when the upstream addresses are set',
      ),
    );
  }
  if (
    production &&
    !emulator &&
    env.ORGANIZATION_CODE === undefined &&
    env.ALLOWED_ORGANIZATION_CODES === undefined
  ) {
    problems.push(
      settingProblem(
        'ORGANIZATION_CODE',
        'required in production (the upstream refuses saves without one), unless ALLOWED_ORGANIZATION_CODES lists the organizations each login must choose from',
      ),
    );
  }
  if (production && env.SESSION_SECRET === undefined) {
    problems.push(settingProblem('SESSION_SECRET', 'required in production (at least 32 characters)'));
  }
  return problems;
}

/** The problems between settings of `config` (each valid alone), one line each. */
export function crossProblems(config: GatewayConfig): string[] {
  const problems: string[] = [];
  const problem = (key: string, message: string): void => void problems.push(settingProblem(key, message));
  const { connectionLimits: connections, http } = config;
  if (config.defaultPageSize > config.maxPageSize)
    problem('DEFAULT_PAGE_SIZE', 'must not exceed MAX_PAGE_SIZE');
  if (config.requestTimeoutMillis <= config.upstreamCallTimeoutMillis) {
    // Otherwise a slow upstream answer would be cut by the request's deadline instead of its own.
    problem('REQUEST_TIMEOUT_MS', 'must exceed UPSTREAM_CALL_TIMEOUT_MS');
  }
  if (http.headersTimeoutMillis > http.requestTimeoutMillis) {
    // Node refuses to start a server whose headers may take longer than the whole request.
    problem('HTTP_HEADERS_TIMEOUT_MS', 'must not exceed HTTP_REQUEST_TIMEOUT_MS');
  }
  if (http.connectionTimeoutMillis <= config.requestTimeoutMillis) {
    // A request's execution sends nothing on its socket: a shorter idle limit would cut slow answers.
    problem('HTTP_CONNECTION_TIMEOUT_MS', 'must exceed REQUEST_TIMEOUT_MS');
  }
  if (connections.maxConnectionsPerAddress > connections.maxConnections) {
    problem('MAX_CONNECTIONS_PER_ADDRESS', 'must not exceed MAX_CONNECTIONS');
  }
  if (connections.maxInflightBodyBytesPerAddress > connections.maxInflightBodyBytes) {
    problem('MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS', 'must not exceed MAX_INFLIGHT_BODY_BYTES');
  }
  if (connections.maxInflightBodyBytesPerAddress < config.maxBodyBytes) {
    // Otherwise a body under MAX_BODY_BYTES could never be received.
    problem('MAX_INFLIGHT_BODY_BYTES_PER_ADDRESS', 'must be at least MAX_BODY_BYTES');
  }
  const answers = config.answerLimits;
  if (answers.maxInflightAnswerBytesPerUser > answers.maxInflightAnswerBytes) {
    problem('MAX_INFLIGHT_ANSWER_BYTES_PER_USER', 'must not exceed MAX_INFLIGHT_ANSWER_BYTES');
  }
  if (answers.maxAnswerBytes > answers.maxInflightAnswerBytesPerUser) {
    // Otherwise an answer under MAX_ANSWER_BYTES could never be built.
    problem('MAX_ANSWER_BYTES', 'must not exceed MAX_INFLIGHT_ANSWER_BYTES_PER_USER');
  }
  const cache = config.cache;
  if (cache.maxBytesPerTenant > cache.maxBytes) {
    problem('CACHE_MAX_BYTES_PER_TENANT', 'must not exceed CACHE_MAX_BYTES');
  }
  if (cache.maxBytesPerUser > cache.maxBytesPerTenant) {
    problem('CACHE_MAX_BYTES_PER_USER', 'must not exceed CACHE_MAX_BYTES_PER_TENANT');
  }
  if (cache.redisMaxBytes > 0 && config.redisUrl === undefined) {
    problem('CACHE_REDIS_MAX_BYTES', 'needs REDIS_URL (entries are shared through Redis)');
  }
  const largest = UPSTREAM_MAX_RESPONSE_BYTES + UPSTREAM_SMALL_ANSWER_BYTES;
  if (config.resilience.maxInflightAnswerBytesPerUser < largest) {
    // An announced length is taken whole: a largest answer must fit beside another small one of that user.
    problem(
      'UPSTREAM_MAX_INFLIGHT_ANSWER_BYTES_PER_USER',
      `must be at least ${largest} (the largest answer, 8 MiB, and one small answer, 64 KiB)`,
    );
  }
  if (config.matchesMode === 'exact' && config.matchesCase === 'insensitive') {
    // `(?-i)` travels in a pattern; an upstream comparing by plain equality takes none, so nothing can make
    // its equality mind case, and `equals` (and every read by id) would answer other cases: refuse the start.
    problem(
      'UPSTREAM_MATCHES_CASE',
      'cannot be insensitive with UPSTREAM_MATCHES=exact: an upstream that compares by plain equality takes no pattern to carry (?-i), so the gateway cannot make it case-sensitive',
    );
  }
  const trusted = config.trustedDocuments;
  if (trusted.only && trusted.files.length === 0) {
    // Otherwise every request would be refused: say so at start, not on the first request.
    problem('TRUSTED_DOCUMENTS_ONLY', 'needs TRUSTED_DOCUMENTS (the manifest files)');
  }
  if (config.federation && trusted.only) {
    // The router sends generated texts (`_entities`, `_service`, query plans) that no manifest can hold:
    // this subgraph would start and then refuse every router query. Refuse the start instead.
    problem(
      'TRUSTED_DOCUMENTS_ONLY',
      'cannot be combined with FEDERATION=true (the router sends query plans no manifest holds); enforce trusted documents at the router (Apollo Router persisted_queries safelist, Hive Gateway persistedDocuments) and unset TRUSTED_DOCUMENTS_ONLY here',
    );
  }
  if (config.federationNamePrefix !== undefined && !config.federation) {
    problem('FEDERATION_NAME_PREFIX', 'only with FEDERATION=true');
  }
  return problems;
}
