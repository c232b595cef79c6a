/**
 * What each peer is called in the report and RESULTS.md, and where it sits in the table.
 */
import { FEATURES, featureOf } from './features/feature-peers.ts';
import { PEER_IDS } from './peer-registry.ts';
import type { PeerId } from './peer-registry.ts';

const TITLES: Record<(typeof PEER_IDS)[number], string> = {
  P0: 'emulator called directly (JSONP)',
  P1: 'minimal pass-through (node:http + undici, no GraphQL)',
  P2: 'naive Apollo Server 5 (fetch, regex, no DataLoader)',
  P3: 'Apollo Server 5 + RESTDataSource',
  F1: "the floor: Fastify 5 + Apollo Server 5 with the gateway's options, one undici call per field",
  F1H: "F1 started as the gateway is (npm start's heap sizes, the container's MALLOC_ARENA_MAX=1)",
  F1J: "F1 executing with the gateway's compiled executor (graphql-jit through Apollo's gateway interface)",
  F1C: 'F1J answering every read from memory after its first call (a perfect cache on Apollo Server)',
  M1: "Fastify 5 + Mercurius with graphql-jit, F1's schema and resolvers",
  P4: 'this gateway (production)',
  P4T: 'P4 with OpenTelemetry traces on (OTLP/HTTP to a sink)',
  P4D: 'P4 on trusted documents only, sent as documentId',
  P4P: 'P4 with the loan types cached per account (PRIVATE), not per organization',
  PB: 'this gateway from another checkout (--baseline), started as P4',
};

/** What a peer is, in a few words. */
export function peerTitle(id: PeerId): string {
  const feature = featureOf(id);
  return feature === undefined ? TITLES[id as (typeof PEER_IDS)[number]] : `P4 without ${FEATURES[feature]}`;
}

/** Where a peer sits in the table: the order of {@link PEER_IDS}, feature copies after P4. */
export function peerOrder(id: PeerId): number {
  const index = (PEER_IDS as readonly string[]).indexOf(id);
  return index >= 0 ? index : PEER_IDS.indexOf('P4') + 0.5;
}
