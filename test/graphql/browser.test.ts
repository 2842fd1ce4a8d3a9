import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let browser: Browser;

beforeAll(async () => {
  t = await startServer();
  expect((await t.post('/api/dcim/sites/', { name: 'Seen In GraphiQL', slug: 'seen' })).status).toBe(201);
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('GraphiQL', () => {
  it('is behind the login, loads from local files only, and runs a query as the session', async () => {
    const context = await browser.newContext({ baseURL: t.base });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const errors: string[] = [];
    const remote: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('request', (r) => !r.url().startsWith(t.base) && !r.url().startsWith('data:') && remote.push(r.url()));
    page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));

    await page.goto('/graphql/');
    expect(new URL(page.url()).pathname).toBe('/login/');
    await page.fill('#username', 'admin');
    await page.fill('#password', 'correct horse battery');
    await Promise.all([page.waitForURL('**/graphql/'), page.click('button[type=submit]')]);

    const editor = page.locator('.graphiql-query-editor .CodeMirror');
    await editor.waitFor();
    await editor.evaluate((element, query) => (element as unknown as { CodeMirror: { setValue(v: string): void } }).CodeMirror.setValue(query), '{ site_list { name status } }');
    await page.click('.graphiql-execute-button');
    const response = page.locator('.graphiql-response .CodeMirror');
    await expect.poll(async () => response.textContent()).toContain('Seen In GraphiQL');
    expect(await response.textContent()).toContain('"status": "active"');
    await screenshot(page, 'graphiql');
    expect(errors).toEqual([]);
    expect(remote).toEqual([]);
    await context.close();
  });
});
