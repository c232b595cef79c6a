/**
 * The GraphQL schema the Apollo peers (P2, P3) expose: the gateway's `object`, `objects` and `saveObject`
 * fields with the same argument and type names (docs/design.md), cut down to what the workloads select, so the
 * load generator sends every GraphQL peer the same document.
 */
import type { IncomingMessage } from 'node:http';

/** SDL shared by the Apollo peers. */
export const peerTypeDefs = /* GraphQL */ `
  scalar JSONObject

  type DataObject {
    id: ID!
    data: JSONObject!
    ref(path: String!, objectName: String!): DataObject
  }

  type DataObjectConnection {
    totalCount: Int!
    nodes: [DataObject!]!
  }

  type SavePayload {
    id: ID!
  }

  type Query {
    object(objectName: String!, id: ID!): DataObject
    objects(objectName: String!, first: Int): DataObjectConnection!
  }

  type Mutation {
    saveObject(objectName: String!, data: JSONObject!): SavePayload!
  }
`;

/** An upstream record: `_id` plus the fields of its type. */
export interface PeerRecord {
  _id: string;
  [field: string]: unknown;
}

/** Upstream credentials of one GraphQL request; the peers have no sessions. */
export interface PeerCredentials {
  token: string;
  username: string;
}

/** Where a peer finds its upstream, from the environment the bench gives it. */
export interface PeerSettings {
  port: number;
  upstreamUrl: string;
  applicationCode: string;
  organizationCode: string;
}

/** Reads `PORT`, `UPSTREAM_URL`, `APPLICATION_CODE`, `ORGANIZATION_CODE`. */
export function readPeerSettings(env: NodeJS.ProcessEnv): PeerSettings {
  return {
    port: Number(env.PORT ?? 4102),
    upstreamUrl: (env.UPSTREAM_URL ?? 'http://127.0.0.1:4010').replace(/\/$/, ''),
    applicationCode: env.APPLICATION_CODE ?? 'demo',
    organizationCode: env.ORGANIZATION_CODE ?? 'acme',
  };
}

/** The body of the upstream's `save` call, as every peer sends it (docs/upstream-contract.md). */
export function saveBody(
  settings: PeerSettings,
  credentials: PeerCredentials,
  objectName: string,
  data: object,
): Record<string, unknown> {
  return {
    objectName,
    data,
    apiToken: credentials.token,
    applicationCode: settings.applicationCode,
    organizationCode: settings.organizationCode,
    callback: 'cb',
  };
}

/** The credentials the bench passes in the `x-upstream-token` and `x-upstream-username` headers. */
export function credentialsFrom(req: IncomingMessage): PeerCredentials {
  const header = (name: string): string => {
    const value = req.headers[name];
    return typeof value === 'string' ? value : '';
  };
  return { token: header('x-upstream-token'), username: header('x-upstream-username') };
}

/** The value at a dotted path of a record (`customer.id`), or `undefined`. */
export function valueAtPath(record: unknown, path: string): unknown {
  let value = record;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A string made safe to embed in a `matches` (full-string regular expression) filter value. */
export function escapeRegex(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
