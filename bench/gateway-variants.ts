/**
 * The gateway started as P4 but with one feature on, to measure what it costs against P4 in the same run:
 * P4T with OpenTelemetry traces (OTLP/HTTP to a sink in the bench process that drops them), P4D on trusted
 * documents only, every workload sent as a `documentId` instead of its text, P4P with the loan types W1 and
 * W5 read cached per account (`PRIVATE`) instead of per organization, as a type of users' own records would be.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { graphqlBody, WORKLOAD_IDS, type GraphQLBody } from './workloads.ts';

/** The gateway variants. */
export type GatewayVariant = 'P4T' | 'P4D' | 'P4P';

/** The login every gateway peer sends first (as text: P4D's manifest holds it). */
export const GATEWAY_LOGIN_QUERY =
  'mutation Login($u: String!, $p: String!) { login(username: $u, password: $p) { token } }';

/** What a variant adds to P4: settings, and how a workload's body is sent. */
export interface VariantSetup {
  env: Record<string, string>;
  /** The body as sent (P4D: the document's id instead of its text). */
  body: (body: GraphQLBody) => unknown;
}

const documentId = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/** An OTLP/HTTP endpoint that accepts and drops every export (not held open: it never keeps the bench up). */
async function startOtlpSink(): Promise<string> {
  const sink = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
  });
  await new Promise<void>((done) => sink.listen(0, '127.0.0.1', done));
  sink.unref();
  return `http://127.0.0.1:${String((sink.address() as AddressInfo).port)}`;
}

/** Prepares a variant; P4D's manifest goes to `logDir`. */
export async function setUpVariant(variant: GatewayVariant, logDir: string): Promise<VariantSetup> {
  if (variant === 'P4T') {
    return {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: await startOtlpSink(), OTEL_SERVICE_NAME: 'bench-gateway' },
      body: (body) => body,
    };
  }
  if (variant === 'P4P') {
    return { env: { CACHE_POLICIES: 'com.example.LoanType=60:PRIVATE' }, body: (body) => body };
  }
  const texts = [GATEWAY_LOGIN_QUERY, ...WORKLOAD_IDS.map((workload) => graphqlBody(workload).query)];
  const manifest = join(logDir, 'P4D-persisted-documents.json');
  writeFileSync(manifest, JSON.stringify(Object.fromEntries(texts.map((text) => [documentId(text), text]))));
  return {
    env: { TRUSTED_DOCUMENTS: manifest, TRUSTED_DOCUMENTS_ONLY: 'true' },
    body: ({ query, ...rest }) => ({ documentId: documentId(query), ...rest }),
  };
}
