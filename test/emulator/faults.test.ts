import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { DEMO, startEmulator, type FaultOptions } from '../../emulator/index.ts';
import { getAll, login, postJson, unwrapJsonp } from '../support/emulator-wire.ts';
import { useEmulator } from '../support/emulator-fixture.ts';

const { emulator, demo } = useEmulator();

const LOAN = 'com.example.LoanType';
const readUrl = () =>
  `${emulator.url}/studio/jsonp/getAll?${new URLSearchParams({ ...demo, objectName: LOAN, pageSize: '3', callback: 'cb' }).toString()}`;

/** Runs `body` with the faults set, and clears them after. */
async function withFaults<T>(faults: FaultOptions, body: () => Promise<T>): Promise<T> {
  emulator.setFaults(faults);
  try {
    return await body();
  } finally {
    emulator.setFaults(undefined);
  }
}

/** A raw GET that reports what the socket saw: status, bytes received, and whether it ended in an error. */
function rawGet(
  url: string,
): Promise<{ status: number; bytes: number; error: string | undefined; body: string }> {
  return new Promise((resolve) => {
    let status = 0;
    let body = '';
    let bytes = 0;
    const req = request(url, (res) => {
      status = res.statusCode ?? 0;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        bytes += Buffer.byteLength(chunk);
        if (body.length < 1000) body += chunk;
      });
      res.on('end', () => {
        resolve({ status, bytes, error: undefined, body });
      });
      res.on('error', (error) => {
        resolve({ status, bytes, error: error.message, body });
      });
    });
    req.on('error', (error) => {
      resolve({ status, bytes, error: error.message, body });
    });
    req.end();
  });
}

describe('fault modes', () => {
  it('should answer error500 with HTTP 500 and an HTML-ish body', async () => {
    const response = await withFaults({ every: 1, mode: 'error500' }, () => fetch(readUrl()));
    expect(response.status).toBe(500);
    expect(await response.text()).toMatch(/<html>.*Internal Server Error/);
  });

  it('should never answer in hang mode, and close() should still end promptly', async () => {
    const hanging = await startEmulator({ port: 0, faults: { every: 1, mode: 'hang' } });
    const pending = fetch(`${hanging.url}/v1/user/login`, { method: 'POST', body: '{}' });
    const outcome = await Promise.race([
      pending.then(
        () => 'answered',
        () => 'failed',
      ),
      new Promise((resolve) => setTimeout(resolve, 300, 'still waiting')),
    ]);
    expect(outcome).toBe('still waiting');
    await hanging.close();
    await expect(pending).rejects.toThrow();
  });

  it('should drop the connection mid-response in reset mode', async () => {
    const seen = await withFaults({ every: 1, mode: 'reset' }, () => rawGet(readUrl()));
    expect(seen.status).toBe(200);
    expect(seen.error).toBeDefined();
    expect(seen.body).toMatch(/^cb\(\{"status":"success"/);
  });

  it('should answer 200 with text that is not JSONP in garbage mode', async () => {
    const response = await withFaults({ every: 1, mode: 'garbage' }, () => fetch(readUrl()));
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(() => unwrapJsonp(body, 'cb')).toThrow();
  });

  it('should stream a valid-looking 20 MB JSONP body in oversized mode', async () => {
    const seen = await withFaults({ every: 1, mode: 'oversized' }, () => rawGet(readUrl()));
    expect(seen.error).toBeUndefined();
    expect(seen.body).toMatch(/^cb\(\{"status":"success","totalCount":\d+,"data":\[\{"_id"/);
    expect(seen.bytes).toBeGreaterThanOrEqual(20 * 1024 * 1024);
  });

  it('should survive a client that abandons the oversized body', async () => {
    await withFaults({ every: 1, mode: 'oversized' }, async () => {
      const response = await fetch(readUrl());
      const reader = response.body!.getReader();
      await reader.read();
      await reader.cancel();
    });
    const answer = await getAll(emulator, demo, LOAN, { pageSize: '1' });
    expect(answer.json.status).toBe('success');
  });

  it('should wrap the real answer in another function name in wrongCallback mode', async () => {
    const body = await withFaults({ every: 1, mode: 'wrongCallback' }, () =>
      fetch(readUrl()).then((r) => r.text()),
    );
    expect(() => unwrapJsonp(body, 'cb')).toThrow();
    expect(unwrapJsonp(body, 'cb_bad')).toMatchObject({ status: 'success', totalCount: 30 });
    const loginBody = await withFaults({ every: 1, mode: 'wrongCallback' }, () =>
      postJson(emulator, '/v1/user/login', { username: DEMO.username, password: DEMO.password }),
    );
    expect(loginBody.body).toMatch(/^unexpectedCallback\(\{"status":"success"/);
  });

  it('should cut the real answer in the middle in truncated mode', async () => {
    const whole = await fetch(readUrl()).then((r) => r.text());
    const body = await withFaults({ every: 1, mode: 'truncated' }, () =>
      fetch(readUrl()).then((r) => r.text()),
    );
    expect(body.length).toBe(Math.floor(whole.length / 2));
    expect(whole.startsWith(body)).toBe(true);
  });

  it('should answer a 200 text/html page in html mode', async () => {
    const response = await withFaults({ every: 1, mode: 'html' }, () => fetch(readUrl()));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toMatch(/^<!DOCTYPE html>/);
  });
});

describe('fault selection and counting', () => {
  it('should fault every Nth call of the chosen operations only, and count faulted calls', async () => {
    emulator.resetStats();
    const statuses = await withFaults({ every: 3, mode: 'error500', operations: ['getAll'] }, async () => {
      const seen: number[] = [];
      for (let i = 0; i < 6; i++) {
        const response = await fetch(readUrl());
        await response.text();
        seen.push(response.status);
      }
      const login = await postJson(emulator, '/v1/user/login', {
        username: DEMO.username,
        password: DEMO.password,
      });
      seen.push(login.status);
      return seen;
    });
    expect(statuses).toEqual([200, 200, 500, 200, 200, 500, 200]);
    expect(emulator.stats()).toMatchObject({ getAll: 6, loginJson: 1 });
  });

  it('should be steered over HTTP: set, read and clear faults', async () => {
    const set = await fetch(`${emulator.url}/__emulator/faults`, {
      method: 'POST',
      body: JSON.stringify({ every: 1, mode: 'html', operations: ['getAll'] }),
    });
    expect(await set.json()).toEqual({
      status: 'success',
      faults: { every: 1, mode: 'html', operations: ['getAll'] },
    });
    expect((await fetch(readUrl())).headers.get('content-type')).toMatch(/^text\/html/);
    const cleared = await fetch(`${emulator.url}/__emulator/faults`, { method: 'POST', body: '{}' });
    expect(await cleared.json()).toEqual({ status: 'success', faults: {} });
    const after = await fetch(readUrl());
    expect(after.headers.get('content-type')).toMatch(/^application\/javascript/);
    await after.text();
  });

  it.each([
    ['an unknown mode', { every: 1, mode: 'explode' }],
    ['every without mode', { every: 2 }],
    ['an unknown operation', { every: 1, mode: 'hang', operations: ['drop'] }],
    ['a negative every', { every: -1, mode: 'hang' }],
    ['an unknown key', { every: 1, mode: 'hang', often: true }],
  ])('should refuse %s with HTTP 400 and keep the old faults', async (_, faults) => {
    const response = await fetch(`${emulator.url}/__emulator/faults`, {
      method: 'POST',
      body: JSON.stringify(faults),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { status: string }).status).toBe('error');
    expect(() => {
      emulator.setFaults(faults as FaultOptions);
    }).toThrow(/invalid fault options/);
  });
});

it('should add latency before answers and still answer correctly', async () => {
  const slow = await startEmulator({ port: 0, latencyMillis: 30 });
  try {
    const answer = await getAll(slow, await login(slow), LOAN, { pageSize: '1' });
    expect(answer.json.status).toBe('success');
  } finally {
    await slow.close();
  }
});
