/**
 * `npm run upstream:check` against an upstream whose `matches` ignores case and one that answers metadata under
 * another key (the emulator's `matchesCase` and `metadataKey` dialects): it recommends `UPSTREAM_MATCHES_CASE`
 * and `UPSTREAM_METADATA_KEY`, confirms them once set, says CANNOT SERVE where no setting helps, and the
 * gateway started on its advice answers right.
 */
import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../emulator/index.ts';
import { startGateway } from '../support/gateway-harness.ts';
import { forwardRequest } from '../support/servers/forward-request.ts';
import { listenOnLoopback } from '../support/servers/listen-on-loopback.ts';
import { expectRecommended } from './expect-recommended.ts';
import { runUpstreamCheck, verdictOf } from './check-command.ts';
import { detailOf } from './check-emulators.ts';

const READ = ['--object-name', 'com.example.Order'];

let running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.map((e) => e.close()));
  running = [];
});

async function emulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const started = await startEmulator({ port: 0, ...options });
  running.push(started);
  return started;
}

/** The statuses of the orders whose `status` equals `value`, or the assumptions its errors name. */
async function readOnAdvice(url: string, env: Record<string, string>, value: string) {
  const gateway = await startGateway({ upstreamUrl: url, env, listen: false });
  running.push(gateway);
  const login = await gateway.post(
    'mutation { login(username: "demo", password: "demo-password") { token } }',
  );
  const auth = { authorization: `Bearer ${(login.data as { login: { token: string } }).login.token}` };
  const equals = await gateway.post(
    `query($v: String!) { objects(objectName: "com.example.Order", first: 100,
       filter: { criteria: [{ fieldName: "status", operator: equals, value: $v }] }) { nodes { data } } }`,
    { v: value },
    auth,
  );
  if (equals.errors !== undefined)
    return equals.errors.map((e) => `error: ${String(e.extensions?.assumption)}`);
  const nodes = (equals.data as { objects: { nodes: { data: { status: string } }[] } }).objects.nodes;
  return nodes.map((n) => n.data.status);
}

describe('npm run upstream:check: matches case and the metadata key', () => {
  it('should recommend UPSTREAM_MATCHES_CASE=insensitive for a case-insensitive upstream, on which the gateway then answers exactly', async () => {
    const upstream = await emulator({ matchesCase: 'insensitive' });
    const run = await runUpstreamCheck({ url: upstream.url }, READ);
    expectRecommended(run, 'matches case', 'UPSTREAM_MATCHES_CASE=insensitive');
    expect(detailOf(run, 'matches case')).toContain('(?-i) first makes it case-sensitive');
    const shipped = await readOnAdvice(upstream.url, run.env, 'SHIPPED');
    expect(shipped.length).toBeGreaterThan(0);
    expect(new Set(shipped)).toEqual(new Set(['SHIPPED']));
    // On that advice, another case of the value answers nothing; without it, the SHIPPED orders the
    // upstream answers are seen to be another case of it: a named error, never those orders.
    expect(await readOnAdvice(upstream.url, run.env, 'shipped')).toEqual([]);
    expect(await readOnAdvice(upstream.url, {}, 'shipped')).toEqual(['error: matches_case']);
  });

  it('should confirm UPSTREAM_MATCHES_CASE=insensitive once set, in find mode too', async () => {
    const upstream = await emulator({ matchesCase: 'insensitive', matches: 'find' });
    const env = { UPSTREAM_MATCHES_CASE: 'insensitive', UPSTREAM_MATCHES: 'find' };
    const run = await runUpstreamCheck({ url: upstream.url, env }, READ);
    expect(run.code).toBe(0);
    expect(verdictOf(run, 'matches case')).toBe('as-assumed');
    expect(run.env).toMatchObject(env);
  });

  it('should recommend UPSTREAM_MATCHES_CASE=sensitive back for a case-sensitive upstream', async () => {
    const upstream = await emulator();
    const run = await runUpstreamCheck(
      { url: upstream.url, env: { UPSTREAM_MATCHES_CASE: 'insensitive' } },
      READ,
    );
    expectRecommended(run, 'matches case', 'UPSTREAM_MATCHES_CASE=sensitive');
  });

  it('should say CANNOT SERVE for an upstream that ignores case and (?-i) alike', async () => {
    const upstream = await emulator({ matchesCase: 'insensitive' });
    // A proxy that drops the flag on its way, as an upstream lower-casing both sides would ignore it.
    const proxy = await listenOnLoopback(
      createServer((req, res) => {
        forwardRequest(new URL(upstream.url), req, res, req.url?.replaceAll('(%3F-i)', ''));
      }),
    );
    running.push(proxy);
    const run = await runUpstreamCheck(
      { url: proxy.url, env: { UPSTREAM_MATCHES_CASE: 'insensitive' } },
      READ,
    );
    expect(run.code).toBe(1);
    expect(verdictOf(run, 'matches case')).toBe('cannot-serve');
    expect(detailOf(run, 'matches case')).toContain('still answers another case after (?-i)');
    expect(run.env.UPSTREAM_MATCHES_CASE).toBeUndefined();
  });

  it('should say CANNOT SERVE for plain equality that ignores case: no pattern can carry (?-i)', async () => {
    const upstream = await emulator({ matchesCase: 'insensitive', matches: 'exact' });
    const run = await runUpstreamCheck({ url: upstream.url }, READ);
    expect(run.code).toBe(1);
    expect(run.env.UPSTREAM_MATCHES).toBe('exact');
    expect(verdictOf(run, 'matches case')).toBe('cannot-serve');
  });

  it('should recommend UPSTREAM_METADATA_KEY=metadata for an upstream answering so, which the gateway then reads', async () => {
    const upstream = await emulator({ metadataKey: 'metadata' });
    const run = await runUpstreamCheck({ url: upstream.url }, READ);
    expectRecommended(run, 'metadata', 'UPSTREAM_METADATA_KEY=metadata');
    expect(detailOf(run, 'metadata')).toContain('the payload is under "metadata", not "data"');

    const confirmed = await runUpstreamCheck({ url: upstream.url, env: run.env }, READ);
    expect(verdictOf(confirmed, 'metadata')).toBe('as-assumed');
    expect(confirmed.env.UPSTREAM_METADATA_KEY).toBe('metadata');

    const gateway = await startGateway({ upstreamUrl: upstream.url, env: run.env, listen: false });
    running.push(gateway);
    const login = await gateway.post(
      'mutation { login(username: "demo", password: "demo-password") { token } }',
    );
    const auth = { authorization: `Bearer ${(login.data as { login: { token: string } }).login.token}` };
    const read = await gateway.post(
      '{ objects(objectName: "com.example.Order", first: 1) { nodes { id metadata { data } } } }',
      {},
      auth,
    );
    expect(read.errors).toBeUndefined();
    const [node] = (read.data as { objects: { nodes: { id: string; metadata: { data: unknown } }[] } })
      .objects.nodes;
    expect(node?.metadata.data).toMatchObject({ objectId: node?.id, objectName: 'com.example.Order' });
  });
});
