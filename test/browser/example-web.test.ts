/**
 * The example front-end (examples/web) in a real browser against the real gateway and emulator, the way a
 * front-end team uses the gateway (its production build on trusted documents only, as the gateway accepts
 * nothing else); then GraphiQL, served by a second gateway on the same emulator with no CDN. The steps build on
 * each other (sign in, page, filter, create, edit) and each leaves a screenshot in test-results/browser/.
 */
import { mkdir } from 'node:fs/promises';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureChromium, launchChromium, type TestBrowser } from '../support/browser/chromium.ts';
import { startExampleStack, type ExampleStack } from '../support/browser/example-stack.ts';

const SHOTS = 'test-results/browser';

/** The little of the DOM that page-side functions here use (this file is compiled without the DOM's types). */
interface PageElement {
  /** Set by CodeMirror 5 on an editor's wrapper element. */
  CodeMirror?: { getValue(): string; setValue(text: string): void };
}
interface PageGlobals {
  document: {
    querySelector(selector: string): PageElement | null;
  };
  getComputedStyle(element: PageElement): { opacity: string };
}
// Generous: a loaded machine makes Chromium slow; a test that passes waits only as long as the page needs.
const WAIT = { timeout: 60_000 };

let stack: ExampleStack;
let browser: TestBrowser;
let page: Page;
/** Uncaught errors in any page: a working page has none. */
const pageErrors: string[] = [];
/** Every request the browser made, for the "nothing but our own servers" checks. */
const requests: Request[] = [];

async function shot(target: Page, name: string): Promise<void> {
  await target.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

const rangeText = () => page.locator('.range').textContent();
const loanTypeCells = () => page.locator('table.loans tbody tr td:first-child').allTextContents();

async function openPage(target: Page): Promise<void> {
  target.on('pageerror', (error) => pageErrors.push(error.message));
  target.on('request', (request) => requests.push(request));
  await target.goto(stack.pageUrl);
}

async function signIn(target: Page, username: string, password: string): Promise<void> {
  const form = target.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Username or mobile number').fill(username);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign in' }).click();
}

async function filterBy(text: string): Promise<void> {
  const box = page.getByLabel('Filter loan types');
  await box.fill(text);
  await box.press('Enter');
}

beforeAll(async () => {
  await ensureChromium();
  await mkdir(SHOTS, { recursive: true });
  // A lock-out after three wrong passwords in a row, for two minutes, so the test can reach it.
  stack = await startExampleStack({ LOGIN_MAX_CONSECUTIVE_FAILURES: '3', LOGIN_BLOCK_SECONDS: '120' });
  browser = await launchChromium();
  page = await browser.context.newPage();
}, 300_000);

afterAll(async () => {
  await browser.close();
  await stack.close();
});

describe('the example front-end', () => {
  it('should sign in and show the first page of loan types with the total count', async () => {
    await openPage(page);
    await shot(page, '01-sign-in-form');
    await signIn(page, 'demo', 'demo-password');
    await expect.poll(rangeText, WAIT).toBe('1–10 of 30');
    expect(await loanTypeCells()).toHaveLength(10);
    expect(await page.locator('.account').textContent()).toContain('Signed in as demo');
    await shot(page, '02-signed-in-first-page');
  });

  it('should keep the token in sessionStorage only and send it as Authorization: Bearer', async () => {
    const storage = await page.evaluate(() => ({
      session: Object.keys(sessionStorage),
      local: Object.keys(localStorage),
      sessionToken: (
        JSON.parse(sessionStorage.getItem('gateway-example.session') ?? '{}') as { token?: string }
      ).token,
      devices: localStorage.getItem('gateway-example.devices') ?? '',
    }));
    expect(storage.session).toEqual(['gateway-example.session']);
    // Only the device token (which opens no session) outlives the tab, never the session token.
    expect(storage.local).toEqual(['gateway-example.devices']);
    expect(Object.keys(JSON.parse(storage.devices) as object)).toEqual(['demo']);
    expect(storage.devices).not.toContain(storage.sessionToken ?? 'no session token');
    const graphql = requests.filter(
      (r) => r.url() === `${stack.gatewayUrl}/graphql` && r.method() === 'POST',
    );
    const reads = graphql.filter((r) => r.postData()?.includes('LoanTypes'));
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) expect(await read.headerValue('authorization')).toMatch(/^Bearer \S+$/);
  });

  it('should send document ids only, never a document text (trusted documents)', () => {
    const graphql = requests.filter(
      (r) => r.url() === `${stack.gatewayUrl}/graphql` && r.method() === 'POST',
    );
    expect(graphql.length).toBeGreaterThan(1);
    for (const request of graphql) {
      const body = JSON.parse(request.postData() ?? '{}') as {
        query?: string;
        extensions?: { persistedQuery?: { sha256Hash?: string } };
      };
      expect(body.query).toBeUndefined();
      expect(body.extensions?.persistedQuery?.sha256Hash).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('should have its gateway refuse a document that is not in the manifest, with its code', async () => {
    const answer = await page.evaluate(async (url) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ me { username } }' }),
      });
      return { status: response.status, body: await response.json() };
    }, `${stack.gatewayUrl}/graphql`);
    expect(answer).toEqual({
      status: 400,
      body: {
        errors: [
          {
            message: expect.stringContaining('trusted documents only') as unknown,
            extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST', blame: 'caller' },
          },
        ],
      },
    });
  });

  it('should page forward to the end and back', async () => {
    const first = await loanTypeCells();
    await page.getByRole('button', { name: 'Next →' }).click();
    await expect.poll(rangeText, WAIT).toBe('11–20 of 30');
    const second = await loanTypeCells();
    expect(second).toHaveLength(10);
    expect(second).not.toEqual(first);
    await shot(page, '03-page-2');
    await page.getByRole('button', { name: 'Next →' }).click();
    await expect.poll(rangeText, WAIT).toBe('21–30 of 30');
    expect(await page.getByRole('button', { name: 'Next →' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: '← Previous' }).click();
    await expect.poll(rangeText, WAIT).toBe('11–20 of 30');
    expect(await loanTypeCells()).toEqual(second);
    await page.getByRole('button', { name: '← Previous' }).click();
    await expect.poll(rangeText, WAIT).toBe('1–10 of 30');
    expect(await loanTypeCells()).toEqual(first);
    expect(await page.getByRole('button', { name: '← Previous' }).isDisabled()).toBe(true);
    await shot(page, '04-back-on-page-1');
  });

  it('should filter by loan type, ignoring case', async () => {
    await filterBy('BOAT');
    await expect.poll(rangeText, WAIT).toBe('1–5 of 5');
    const cells = await loanTypeCells();
    expect(cells).toHaveLength(5);
    for (const cell of cells) expect(cell).toMatch(/^Boat /);
    await shot(page, '05-filtered-boat');
  });

  it('should create a loan type and find it', async () => {
    const form = page.getByRole('form', { name: 'New loan type' });
    await form.getByLabel('Loan type').fill('Browser Test Loan');
    await form.getByLabel('Description').fill('made by the browser test');
    await form.getByLabel('Rate (%)').fill('3.75');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent(), WAIT)
      .toMatch(/^Created “Browser Test Loan”/);
    await filterBy('browser test');
    await expect.poll(rangeText, WAIT).toBe('1–1 of 1');
    const row = page.locator('table.loans tbody tr').first();
    expect(await row.locator('td').allTextContents()).toEqual([
      'Browser Test Loan',
      'made by the browser test',
      '3.75 %',
      'Edit',
    ]);
    await shot(page, '06-created');
  });

  it('should edit the new loan type inline and show the change, also after a reload', async () => {
    await page.getByRole('button', { name: 'Edit Browser Test Loan' }).click();
    const row = page.locator('table.loans tbody tr.editing');
    await row.getByLabel('Description').fill('edited in the browser');
    await row.getByLabel('Rate (%)').fill('4.5');
    await shot(page, '07-editing');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').textContent(), WAIT).toBe('Saved “Browser Test Loan”.');
    const cells = () => page.locator('table.loans tbody tr').first().locator('td').allTextContents();
    expect(await cells()).toEqual(['Browser Test Loan', 'edited in the browser', '4.50 %', 'Edit']);
    await shot(page, '08-edited');

    // The change is the upstream's, not the page's: a reload (same tab, same session) reads it back.
    await page.reload();
    await filterBy('browser test');
    await expect.poll(rangeText, WAIT).toBe('1–1 of 1');
    expect(await cells()).toEqual(['Browser Test Loan', 'edited in the browser', '4.50 %', 'Edit']);
  });

  it('should show the generic error and its code after a wrong password', async () => {
    const other = await browser.context.newPage();
    await openPage(other);
    await signIn(other, 'demo', 'not-the-password');
    const problem = other.getByRole('form', { name: 'Sign in' }).locator('.form-error');
    await expect.poll(() => problem.textContent(), WAIT).toBe('Invalid username or password.');
    expect(await other.locator('.error-banner .error-code').textContent()).toBe('UNAUTHENTICATED');
    expect(await other.locator('.error-banner').isVisible()).toBe(true);
    await shot(other, '09-wrong-password');
    await other.close();
  });

  it('should say when to try again once sign-in is locked out, and keep the button off', async () => {
    const other = await browser.context.newPage();
    await openPage(other);
    const problem = other.getByRole('form', { name: 'Sign in' }).locator('.form-error');
    let message = '';
    for (let attempt = 1; attempt <= 5 && !message.includes('locked'); attempt++) {
      await signIn(other, 'ops', `wrong-${attempt}`);
      await expect.poll(() => problem.textContent(), WAIT).not.toBe('');
      message = (await problem.textContent()) ?? '';
    }
    expect(message).toBe('Too many failed sign-ins: this sign-in is locked. Try again in 2 minutes.');
    expect(await other.locator('.error-banner .error-code').textContent()).toBe('UNAUTHENTICATED');
    expect(await other.getByRole('button', { name: 'Sign in' }).isDisabled()).toBe(true);
    await shot(other, '10-locked-out');
    await other.close();
  });

  it('should sign in with the mobile number instead of the username', async () => {
    const other = await browser.context.newPage();
    await openPage(other);
    await signIn(other, '5550100', 'demo-password');
    await expect.poll(() => other.locator('.range').textContent(), WAIT).toMatch(/^1–10 of 3\d$/);
    await other.close();
  });

  it('should have run without an error in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});

describe('GraphiQL', () => {
  let graphiql: Page;
  const graphiqlRequests: string[] = [];

  beforeAll(async () => {
    graphiql = await browser.context.newPage();
    graphiql.on('pageerror', (error) => pageErrors.push(error.message));
    graphiql.on('request', (request) => graphiqlRequests.push(request.url()));
  });

  const QUERY = '.graphiql-query-editor .CodeMirror';
  // The variables and headers editors share a panel; the one not shown has the class `hidden`.
  const HEADERS = '.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror';
  const RESULT = '.result-window .CodeMirror';

  /** The text of an editor: GraphiQL 4 keeps the CodeMirror 5 instance on the wrapper element. */
  const editorText = (selector: string) =>
    graphiql.evaluate(
      (s) => (globalThis as unknown as PageGlobals).document.querySelector(s)?.CodeMirror?.getValue() ?? '',
      selector,
    );
  const setEditorText = (selector: string, text: string) =>
    graphiql.evaluate(
      ([s, t]) => {
        (globalThis as unknown as PageGlobals).document.querySelector(s)?.CodeMirror?.setValue(t);
      },
      [selector, text] as const,
    );

  it('should open pre-filled with the example operations, loaded from the gateway alone', async () => {
    await graphiql.goto(`${stack.toolsUrl}/graphiql`);
    await expect.poll(() => editorText(QUERY), WAIT).toContain('mutation Login');
    expect(await editorText(QUERY)).toContain('query LoanTypes');
    expect(await editorText(HEADERS)).toContain('"Authorization"');
    expect(graphiqlRequests.every((url) => url.startsWith(stack.toolsUrl) || url.startsWith('data:'))).toBe(
      true,
    );
    await shot(graphiql, '11-graphiql');
  });

  it('should run the Login operation and show the token', async () => {
    await graphiql.locator('.graphiql-execute-button').click();
    // Two operations in the document: GraphiQL asks which one to run.
    await graphiql.getByRole('menuitem', { name: 'Login' }).click();
    await expect.poll(() => editorText(RESULT), WAIT).toContain('"token"');
    const result = JSON.parse(await editorText(RESULT)) as {
      data: { login: { token: string; user: { username: string } } };
    };
    expect(result.data.login.user.username).toBe('demo');
    await shot(graphiql, '12-graphiql-login');
  });

  it('should run LoanTypes with the token in the headers editor', async () => {
    const token = await stack.tools.login();
    await setEditorText(HEADERS, JSON.stringify({ Authorization: `Bearer ${token}` }, null, 2));
    expect(await editorText(HEADERS)).toContain(token);
    await graphiql.locator('.graphiql-execute-button').click();
    await graphiql.getByRole('menuitem', { name: 'LoanTypes' }).click();
    await expect.poll(() => editorText(RESULT), WAIT).toContain('"totalCount"');
    const result = JSON.parse(await editorText(RESULT)) as {
      data: { objects: { totalCount: number; nodes: unknown[] } };
    };
    expect(result.data.objects.totalCount).toBe(31);
    expect(result.data.objects.nodes).toHaveLength(5);
    await shot(graphiql, '13-graphiql-loan-types');
  });

  it("should be linked from Sandbox's page when Apollo's CDN cannot be reached", async () => {
    const landing = await browser.context.newPage();
    // Offline, as on an air-gapped network, whatever this machine's network is.
    await landing.route(/^https:\/\//, (route) => route.abort('internetdisconnected'));
    await landing.goto(`${stack.toolsUrl}/graphql`, { waitUntil: 'domcontentloaded' });
    const link = landing.getByRole('link', { name: 'open GraphiQL' });
    await link.waitFor({ state: 'visible', ...WAIT });
    // The fallback fades in after a second.
    await landing.waitForFunction(() => {
      const page = globalThis as unknown as PageGlobals;
      const fallback = page.document.querySelector('.fallback');
      return fallback !== null && page.getComputedStyle(fallback).opacity === '1';
    }, WAIT);
    await shot(landing, '14-sandbox-offline-link');
    await link.click();
    await landing.waitForURL(`${stack.toolsUrl}/graphiql`, WAIT);
    await landing.locator('.graphiql-query-editor').waitFor(WAIT);
    await landing.close();
  });

  it('should have run without an error in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
