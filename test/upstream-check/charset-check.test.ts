/**
 * `npm run upstream:check`'s charset probe against the emulator in its ISO-8859-1 dialect, and behind a proxy
 * that makes it the servlet of the issue: answers that name no charset, bodies read as ISO-8859-1 whatever
 * they declare. The check recommends the setting, and the gateway on that advice answers right.
 */
import { createServer, request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../emulator/index.ts';
import { startGateway } from '../support/gateway-harness.ts';
import { listenOnLoopback, type Listening } from '../support/servers/listen-on-loopback.ts';
import { runUpstreamCheck, verdictOf, type CheckRun } from './check-command.ts';

const READ = ['--object-name', 'com.example.Order'];
const WRITES = ['--allow-writes', '--write-object-name', 'com.example.LoanType'];
const JORG = {
  userId: 'u-jorg',
  username: 'jörg',
  password: 'Café-Grüße',
  mobile: '5550177',
  applicationCode: 'demo',
  organizationCodes: ['acme'],
};

const closing: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((c) => c.close()));
});

async function emulator(options: EmulatorOptions): Promise<RunningEmulator> {
  const started = await startEmulator({ port: 0, users: [JORG], ...options });
  closing.push(started);
  return started;
}

/**
 * A proxy that drops the `charset` parameter of the answers' Content-Type (`answers`) and of the requests'
 * (`requests`: the emulator then reads every body in its own charset, whatever the client declared).
 */
async function dropCharsets(
  target: string,
  drop: { answers: boolean; requests: boolean },
): Promise<Listening> {
  const upstream = new URL(target);
  const strip = (value: string): string => value.replace(/;\s*charset=[^;]*/i, '');
  const proxy = await listenOnLoopback(
    createServer((req, res) => {
      const headers = { ...req.headers };
      if (drop.requests && headers['content-type'] !== undefined)
        headers['content-type'] = strip(headers['content-type']);
      const forwarded = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
        (answer) => {
          const answerHeaders = { ...answer.headers };
          if (drop.answers && answerHeaders['content-type'] !== undefined) {
            answerHeaders['content-type'] = strip(answerHeaders['content-type']);
          }
          res.writeHead(answer.statusCode ?? 502, answerHeaders);
          answer.pipe(res);
        },
      );
      forwarded.on('error', () => res.destroy());
      req.pipe(forwarded);
    }),
  );
  closing.push(proxy);
  return proxy;
}

const detailOf = (run: CheckRun, topic: string): string =>
  run.report?.findings.find((f) => f.topic === topic)?.detail ?? '';

/** Logs in as jörg by form and saves then reads back accented text through the gateway on `env`. */
async function gatewayRoundTrip(url: string, env: Record<string, string>) {
  const gateway = await startGateway({
    upstreamUrl: url,
    env: { ...env, LOGIN_METHOD: 'FORM' },
    listen: false,
  });
  try {
    const login = await gateway.post(
      'mutation { login(username: "jörg", password: "Café-Grüße", method: FORM) { token } }',
    );
    expect(login.errors).toBeUndefined();
    const token = (login.data as { login: { token: string } }).login.token;
    const saved = await gateway.post(
      `mutation($data: JSONObject!) { saveObject(objectName: "com.example.LoanType", data: $data) { object { data } } }`,
      { data: { loanType: 'Société Générale' } },
      { authorization: `Bearer ${token}` },
    );
    expect(saved.errors).toBeUndefined();
    return (saved.data as { saveObject: { object: { data: Record<string, unknown> } } }).saveObject.object
      .data;
  } finally {
    await gateway.close();
  }
}

describe('npm run upstream:check, character sets', () => {
  it('should read the charset an ISO-8859-1 upstream names and say that it cannot give back text beyond Latin-1', async () => {
    const { url } = await emulator({ charset: 'iso-8859-1' });
    const readOnly = await runUpstreamCheck({ url }, READ);
    expect(verdictOf(readOnly, 'answer charset')).toBe('as-assumed');
    expect(detailOf(readOnly, 'answer charset')).toContain('charset=ISO-8859-1');

    const run = await runUpstreamCheck({ url }, [...READ, ...WRITES]);
    expect(verdictOf(run, 'Latin-1 text')).toBe('as-assumed');
    expect(verdictOf(run, 'request charset')).toBe('as-assumed');
    expect(verdictOf(run, 'non-Latin-1 text')).toBe('cannot-serve');
    expect(detailOf(run, 'non-Latin-1 text')).toMatch(/came back as "\?+ \?".*cannot give back/);
    expect(run.code).toBe(1);
    expect(run.env.UPSTREAM_ANSWER_CHARSET).toBeUndefined();
    expect(run.env.UPSTREAM_REQUEST_CHARSET).toBeUndefined();
  });

  it('should find every charset as assumed in the emulator as it ships', async () => {
    const { url } = await emulator({});
    const run = await runUpstreamCheck({ url }, [...READ, ...WRITES]);
    for (const topic of ['answer charset', 'Latin-1 text', 'non-Latin-1 text', 'request charset']) {
      expect([topic, verdictOf(run, topic)]).toEqual([topic, 'as-assumed']);
    }
  });

  it('should recommend UPSTREAM_ANSWER_CHARSET and UPSTREAM_REQUEST_CHARSET for the servlet of the issue, on which advice the gateway answers right', async () => {
    const upstream = await emulator({ charset: 'iso-8859-1' });
    const proxy = await dropCharsets(upstream.url, { answers: true, requests: true });
    const run = await runUpstreamCheck({ url: proxy.url }, [...READ, ...WRITES]);
    expect(run.stderr).toBe('');
    expect(verdictOf(run, 'Latin-1 text')).toBe('differs');
    expect(verdictOf(run, 'request charset')).toBe('differs');
    expect(run.env.UPSTREAM_ANSWER_CHARSET).toBe('iso-8859-1');
    expect(run.env.UPSTREAM_REQUEST_CHARSET).toBe('iso-8859-1');

    // Without the advice: the answers are refused by name, never shown garbled.
    const gateway = await startGateway({ upstreamUrl: proxy.url, listen: false });
    try {
      const login = await gateway.post(
        'mutation { login(username: "demo", password: "demo-password") { token } }',
      );
      const token = (login.data as { login: { token: string } }).login.token;
      const read = await gateway.post(
        `mutation { saveObject(objectName: "com.example.LoanType", data: { loanType: "Société" }) { object { data } } }`,
        {},
        { authorization: `Bearer ${token}` },
      );
      expect(read.errors?.[0]?.extensions).toMatchObject({
        code: 'UPSTREAM_DIALECT_MISMATCH',
        assumption: 'answer_charset',
        setting: 'UPSTREAM_ANSWER_CHARSET',
      });
    } finally {
      await gateway.close();
    }
    // With it: the form login and accented text, right.
    expect(await gatewayRoundTrip(proxy.url, run.env)).toMatchObject({ loanType: 'Société Générale' });
  });
});
