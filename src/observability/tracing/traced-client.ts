/**
 * The upstream client with one span per call (`GatewayTracing.upstreamCall`), wrapped around the resilient
 * client so that a span covers the call's retries and its wait for a slot. Used only when tracing is on.
 */
import type { ResilientClient } from '../../upstream/resilience/resilience.ts';
import type { GatewayTracing } from './tracing.ts';

/** Wraps `client`: every operation runs in its span; the batch size is the records asked for. */
export function withTracing(client: ResilientClient, tracing: GatewayTracing): ResilientClient {
  return {
    ...client,
    loginJson: (username, password) =>
      tracing.upstreamCall('loginJson', 1, () => client.loginJson(username, password)),
    loginForm: (username, password) =>
      tracing.upstreamCall('loginForm', 1, () => client.loginForm(username, password)),
    getMetadata: (credentials, objectId, category) =>
      tracing.upstreamCall('metadata', 1, () => client.getMetadata(credentials, objectId, category)),
    getObject: (credentials, objectName, criteria) =>
      tracing.upstreamCall('getObject', 1, () => client.getObject(credentials, objectName, criteria)),
    // A batch of ids asks for one page of as many records as ids (`batch-by-id.ts`).
    getAll: (credentials, objectName, criteria, pageSize, pageIndex) =>
      tracing.upstreamCall('getAll', pageSize, () =>
        client.getAll(credentials, objectName, criteria, pageSize, pageIndex),
      ),
    save: (credentials, objectName, data) =>
      tracing.upstreamCall('save', 1, () => client.save(credentials, objectName, data)),
    update: (credentials, objectName, id, data) =>
      tracing.upstreamCall('update', 1, () => client.update(credentials, objectName, id, data)),
  };
}
