/**
 * The client's settings, read from the gateway's configuration as they are: the one place where config
 * field names meet the client's option names, so that the gateway, the upstream check and the tools
 * build their clients alike and no module re-applies a default (the config holds them).
 */
import type { GatewayConfig } from '../../config/gateway-config.ts';
import type { UpstreamClientSettings } from './types.ts';

/** The settings of {@link UpstreamClientSettings} from `config`. */
export function clientSettingsOf(config: GatewayConfig): UpstreamClientSettings {
  return {
    pageStartMode: config.pageStartMode,
    matchesMode: config.matchesMode,
    answerCharset: config.answerCharset,
    requestCharset: config.requestCharset,
    upstreamMaxPageSize: config.upstreamMaxPageSize,
    matchesCase: config.matchesCase,
    saveIdAt: config.saveIdAt,
    saveWithId: config.saveWithId,
    updateFields: config.updateFields,
    metadataKey: config.metadataKey,
    authErrorPattern: config.authErrorPattern,
    forbiddenErrorPattern: config.forbiddenErrorPattern,
    callerErrorPattern: config.callerErrorPattern,
    requestLimits: config.upstreamRequestLimits,
    connectTimeoutMillis: config.upstreamConnectTimeoutMillis,
    headersTimeoutMillis: config.upstreamHeadersTimeoutMillis,
    bodyTimeoutMillis: config.upstreamBodyTimeoutMillis,
    callTimeoutMillis: config.upstreamCallTimeoutMillis,
    connectionsPerOrigin: config.upstreamConnections,
    maxInflightAnswerBytes: config.resilience.maxInflightAnswerBytes,
    maxInflightAnswerBytesPerUser: config.resilience.maxInflightAnswerBytesPerUser,
  };
}
