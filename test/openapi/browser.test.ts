import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../helpers/browser.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

let t: TestServer;
let browser: Browser;
let viewer: TestUser;

beforeAll(async () => {
  t = await startServer();
  expect((await t.post('/api/tenancy/tenants/', { name: 'Seen In Swagger', slug: 'seen-in-swagger' })).status).toBe(201);
  viewer = await t.createUser('viewer');
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/**
 * A page of a new browser context, and what went wrong in it from now on: a script's error, or a file or page of
 * the site that did not load (API calls answer what they answer).
 */
async function open(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ baseURL: t.base });
  const page = await context.newPage();
  // Fail on the step that waits, before the test's own timeout.
  page.setDefaultTimeout(30_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(m.text()));
  page.on('response', (r) => {
    const { pathname } = new URL(r.url());
    if (r.status() >= 400 && (!pathname.startsWith('/api/') || pathname.startsWith('/api/schema/'))) errors.push(`${r.status()} ${pathname}`);
  });
  page.on('requestfailed', (r) => errors.push(`${r.failure()?.errorText} ${r.url()}`));
  return { context, page, errors };
}

/** Logs in on the form the API sends a browser to, landing back on `path`. */
async function logIn(page: Page, path: string, user: TestUser): Promise<void> {
  await page.goto(path);
  expect(new URL(page.url()).pathname).toBe('/login/');
  await page.fill('#username', user.username);
  await page.fill('#password', user.password);
  await Promise.all([page.waitForURL(`**${path}`), page.click('button[type=submit]')]);
}

/** Swagger UI showing one app's operations, through its filter box (it renders only what is in view of its long list). */
async function showTag(page: Page, tag: string): Promise<void> {
  await page.locator('input.operation-filter-input').fill(tag);
  await page.locator(`.opblock-tag[data-tag="${tag}"]`).waitFor();
}

/** Tries an operation out (expanding it first if need be) with an optional JSON body: the status and body shown. */
async function execute(page: Page, tag: string, operationId: string, body?: object): Promise<{ status: string; text: string }> {
  const block = page.locator(`#operations-${tag}-${operationId}`);
  if (!(await block.locator('.try-out__btn').isVisible())) await block.locator('.opblock-summary').first().click();
  if ((await block.locator('.try-out__btn').textContent())?.includes('Try it out')) await block.locator('.try-out__btn').click();
  if (await block.locator('button.btn-clear').isVisible()) await block.locator('button.btn-clear').click();
  if (body) await block.locator('textarea.body-param__text').fill(JSON.stringify(body));
  await block.locator('button.execute').click();
  const status = block.locator('.live-responses-table tbody .response-col_status').first();
  await status.waitFor();
  return { status: (await status.textContent())!.trim(), text: (await block.locator('.live-responses-table tbody .response-col_description').first().textContent()) ?? '' };
}

describe('Swagger UI', () => {
  it('is behind the login, loads from local files, and tries calls with a token entered in Authorize', async () => {
    const { context, page, errors } = await open();
    await logIn(page, '/api/schema/swagger-ui/', viewer);
    await showTag(page, 'tenancy');

    // The session of a user with no permission: refused.
    expect((await execute(page, 'tenancy', 'tenancy_tenants_list')).status).toBe('403');

    // A token typed in "Authorize" (the bare key: the page adds `Token `) is sent instead.
    await page.click('.auth-wrapper button.authorize');
    await page.locator('.modal-ux input').first().fill(t.admin.token);
    await page.locator('.modal-ux .auth-btn-wrapper button.authorize').click();
    await page.locator('.modal-ux button.btn-done').click();
    const listed = await execute(page, 'tenancy', 'tenancy_tenants_list');
    expect(listed.status).toBe('200');
    expect(listed.text).toContain('Seen In Swagger');

    await page.locator('#operations-tenancy-tenancy_tenants_list .opblock-summary').first().click();
    const created = await execute(page, 'tenancy', 'tenancy_tenants_create', { name: 'Made In Swagger', slug: 'made-in-swagger' });
    expect(created.status).toBe('201');
    expect((await t.get('/api/tenancy/tenants/?slug=made-in-swagger')).body.count).toBe(1);
    await screenshot(page, 'swagger-ui', false);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('writes as a logged-in session, sending its CSRF token', async () => {
    const { context, page, errors } = await open();
    await logIn(page, '/api/schema/swagger-ui/', t.admin);
    await showTag(page, 'tenancy');
    const created = await execute(page, 'tenancy', 'tenancy_tenants_create', { name: 'Session Tenant', slug: 'session-tenant' });
    expect(created.status).toBe('201');
    expect((await t.get('/api/tenancy/tenants/?slug=session-tenant')).body.count).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});

describe('ReDoc', () => {
  it('is behind the login, lists the document by app in parts, and renders a part from local files', async () => {
    const { context, page, errors } = await open();
    await logIn(page, '/api/schema/redoc/', viewer);
    expect(await page.title()).toBe('ReDoc – Patchbay API');
    const parts = await page.locator('.links a').allTextContents();
    expect(parts).toEqual(expect.arrayContaining(['The whole document', expect.stringMatching(/^tenancy( \(1 of \d+\))?$/), expect.stringMatching(/^dcim \(1 of \d+\)$/)]));
    await screenshot(page, 'redoc-index', false);
    // One part: a few seconds, where the whole document (the last link) takes some forty.
    await Promise.all([page.waitForURL('**/api/schema/redoc/?app=tenancy&part=1'), page.locator('.links a', { hasText: /^tenancy/ }).first().click()]);
    // Laid out: its operations are on the page (ReDoc renders them all at once).
    await page.locator('[data-section-id^="operation/"]').first().waitFor({ state: 'attached', timeout: 60_000 });
    expect(await page.locator('[data-section-id^="operation/"]').count()).toBeGreaterThan(10);
    expect(await page.title()).toMatch(/^ReDoc: tenancy( \(1 of \d+\))? – Patchbay API$/);
    await screenshot(page, 'redoc', false);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
