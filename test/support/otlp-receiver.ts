/**
 * An OTLP/HTTP (JSON) receiver on loopback for the tracing tests: it keeps every span exported to
 * `/v1/traces` and notes every path posted to (`/v1/metrics`, `/v1/logs` included), answering 200.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** An OTLP/JSON attribute: `{ key, value: { stringValue | intValue | boolValue | … } }`. */
export interface OtlpAttribute {
  key: string;
  value: Record<string, unknown>;
}

/** A span as OTLP/JSON carries it. */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** 1 internal, 2 server, 3 client. */
  kind?: number;
  status?: { code?: number; message?: string };
  attributes?: OtlpAttribute[];
  events?: { name: string; attributes?: OtlpAttribute[] }[];
}

/** OTLP's span kinds as numbers. */
export const SpanKindNumber = { INTERNAL: 1, SERVER: 2, CLIENT: 3 } as const;

/** The running receiver. */
export interface OtlpReceiver {
  url: string;
  /** Every span received so far. */
  spans(): OtlpSpan[];
  /** The path of every export received so far. */
  paths(): string[];
  /** Waits (up to 120 s: exports are batched, the machine may be loaded) until `done` holds. */
  waitFor(done: () => boolean): Promise<void>;
  close(): Promise<void>;
}

/** The attribute's value (OTLP/JSON sends 64-bit integers as strings: they come back as numbers). */
export function attribute(
  holder: { attributes?: OtlpAttribute[] } | undefined,
  key: string,
): string | number | boolean | undefined {
  const value = holder?.attributes?.find((a) => a.key === key)?.value;
  if (value === undefined) return undefined;
  const first = Object.values(value)[0];
  if ('intValue' in value) return Number(first);
  return typeof first === 'string' || typeof first === 'number' || typeof first === 'boolean'
    ? first
    : JSON.stringify(first);
}

/** Starts the receiver on a free loopback port. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const bodies: string[] = [];
  const paths: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      paths.push(req.url ?? '');
      if (req.url === '/v1/traces') bodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const spans = (): OtlpSpan[] =>
    bodies.flatMap((body) => {
      const parsed = JSON.parse(body) as {
        resourceSpans?: { scopeSpans?: { spans?: OtlpSpan[] }[] }[];
      };
      return (parsed.resourceSpans ?? []).flatMap((r) => (r.scopeSpans ?? []).flatMap((s) => s.spans ?? []));
    });
  return {
    url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    spans,
    paths: () => [...paths],
    async waitFor(done) {
      // Generous: exports come on the SDK's timers, late on a loaded machine; a test that passes waits less.
      const deadline = Date.now() + 120_000;
      while (!done() && Date.now() < deadline) await sleep(50);
    },
    close: () =>
      new Promise((done) => {
        server.close(() => {
          done();
        });
      }),
  };
}
