import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';

const SITES = '/api/dcim/sites/';
const HOSTILE = '<script>window.__pwned = true</script><img src=x onerror="window.__pwned = true">';

let t: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  t = await startServer();
  const { body: region } = await t.post('/api/dcim/regions/', { name: 'Europe', slug: 'europe' });
  for (let i = 1; i <= 5; i++) {
    const res = await t.post(SITES, { name: `DC ${i}`, slug: `dc-${i}`, region: region.id, status: i % 2 ? 'active' : 'planned' });
    expect(res.status).toBe(201);
  }
  expect((await t.post(SITES, { name: 'Hostile', slug: 'hostile', description: HOSTILE })).status).toBe(201);
  browser = await launchBrowser();
  context = await browser.newContext({ baseURL: t.base, viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => m.type() === 'error' && !/status of 4\d\d/.test(m.text()) && problems.push(m.text()));
  page.on('request', (r) => !r.url().startsWith(t.base) && !r.url().startsWith('data:') && problems.push(`remote ${r.url()}`));
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** The text of the response pane the last action filled (OPTIONS, a form). */
const result = () => page.locator('#result-body');

describe('the browsable API in a browser', () => {
  it('sends a visitor to log in, then back to the page asked for', async () => {
    await page.goto(`${SITES}?limit=2`);
    expect(new URL(page.url()).pathname).toBe('/login/');
    await screenshot(page, 'login', false);
    await page.fill('#username', 'admin');
    await page.fill('#password', 'correct horse battery');
    await Promise.all([page.waitForURL(`**${SITES}?limit=2`), page.click('button[type=submit]')]);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Site List');
    expect(await page.locator('.account').textContent()).toContain('Logged in as admin');
  });

  it('goes from /api/ to a site through the links, and back through the breadcrumbs', async () => {
    await page.goto('/api/');
    await screenshot(page, 'browsable-root');
    await Promise.all([page.waitForURL('**/api/dcim/'), page.click(`a.j-link[href="${t.base}/api/dcim/"]`)]);
    expect(await page.locator('h1').textContent()).toBe('DCIM');
    await Promise.all([page.waitForURL(`**${SITES}`), page.click(`a.j-link[href="${t.base}${SITES}"]`)]);
    // The pages: 6 sites, all on one page at the default size; the links lead to each one.
    expect(await page.locator('.pager .summary').textContent()).toBe('1–6 of 6');
    const first = (await t.get(`${SITES}?name=DC 1`)).body.results[0];
    await Promise.all([page.waitForURL(`**${SITES}${first.id}/`), page.locator(`a.j-link[href="${first.url}"]`).first().click()]);
    expect(await page.locator('h1').textContent()).toBe('Site Instance');
    expect(await page.locator('.crumbs li').allTextContents()).toEqual(['API Root', 'DCIM', 'Sites', 'DC 1']);
    await screenshot(page, 'browsable-detail');
    await Promise.all([page.waitForURL(`**${SITES}`), page.click('.crumbs a:text("Sites")')]);
    await Promise.all([page.waitForURL('**/api/'), page.click('.crumbs a:text("API Root")')]);
    expect(await page.locator('h1').textContent()).toBe('API Root');
  });

  it('pages and filters a list with the filters its model declares', async () => {
    await page.goto(`${SITES}?limit=2`);
    expect(await page.locator('.pager .summary').textContent()).toBe('1–2 of 6');
    await Promise.all([page.waitForURL(/offset=2/), page.click('.pager a[rel=next]')]);
    expect(await page.locator('.pager .summary').textContent()).toBe('3–4 of 6');

    await page.goto(SITES);
    const names = await page.locator('#filter-names option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(names).toEqual(expect.arrayContaining(['status', 'status__n', 'region', 'region_id', 'name__ic', 'q', 'tag']));
    await page.fill('#filter-name', 'status');
    await page.fill('#filter-value', 'planned');
    await Promise.all([page.waitForURL(/status=planned/), page.click('#add-filter button[type=submit]')]);
    expect(await page.locator('.pager .summary').textContent()).toBe('1–2 of 2');
    expect(await page.locator('.chips').textContent()).toContain('status=planned');
    await screenshot(page, 'browsable-filtered');
    await page.fill('#q', 'DC 4');
    await Promise.all([page.waitForURL(/q=DC\+4/), page.click('form.search button')]);
    expect(await page.locator('.pager .summary').textContent()).toBe('1–1 of 1');
    // Removing the filter keeps the search.
    await Promise.all([page.waitForURL((url) => !url.search.includes('status')), page.click('.chips a')]);
    expect(await page.locator('.pager .summary').textContent()).toBe('1–1 of 1');
  });

  it('creates an object through the form, and shows the errors of a bad one', async () => {
    await page.goto(SITES);
    expect(await page.locator('#body-POST').inputValue()).toBe(JSON.stringify({ name: '', slug: '' }, null, 4));
    await page.fill('#body-POST', JSON.stringify({ name: 'From the form', slug: 'from-the-form', status: 'planned' }));
    await page.click('.send[data-method=POST]');
    await expect.poll(() => result().textContent()).toContain('HTTP 201 Created');
    expect(await result().textContent()).toContain('"name": "From the form"');
    expect((await t.get(`${SITES}?slug=from-the-form`)).body.count).toBe(1);

    // Taken name and slug: both reported, each under its field.
    await page.click('.send[data-method=POST]');
    await expect.poll(() => result().textContent()).toContain('HTTP 400 Bad Request');
    const errors = await result().textContent();
    expect(errors).toContain('site with this name already exists.');
    expect(errors).toContain('site with this slug already exists.');
    await screenshot(page.locator('#result'), 'browsable-create-error');
    await page.fill('#body-POST', JSON.stringify({ name: 'Gone', slug: 'gone', status: 'gone' }));
    await page.click('.send[data-method=POST]');
    await expect.poll(() => result().textContent()).toContain('gone is not a valid choice.');
    await screenshot(page, 'browsable-list');

    // OPTIONS describes the fields and their choices.
    await page.click('#options');
    await expect.poll(() => result().textContent()).toContain('"actions"');
    expect(await result().textContent()).toContain('"display_name": "Planned"');
  });

  it('changes and deletes an object from its page, after confirming', async () => {
    const { body: site } = await t.get(`${SITES}?slug=from-the-form`);
    const id = site.results[0].id;
    await page.goto(`${SITES}${id}/`);
    await page.click('#tab-PATCH');
    await page.fill('#body-PATCH', JSON.stringify({ description: 'Patched in a browser' }));
    await page.click('.send[data-method=PATCH]');
    await expect.poll(() => result().textContent()).toContain('HTTP 200 OK');
    expect((await t.get(`${SITES}${id}/`)).body.description).toBe('Patched in a browser');

    await page.click('#tab-DELETE');
    expect(await page.locator('.send[data-method]').allTextContents()).toEqual(['Replace', 'Update', 'Delete']);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.click('.send[data-method=DELETE]');
    await expect.poll(() => result().textContent()).toContain('HTTP 204 No Content');
    expect((await t.get(`${SITES}${id}/`)).status).toBe(404);
  });

  it('keeps its title, filters and create form on an error, and says which parameters it ignored', async () => {
    const bad = await page.goto(`${SITES}?status=bogus&region=europe`);
    expect(bad!.status()).toBe(400);
    expect(await page.locator('h1').textContent()).toBe('Site List');
    expect(await page.locator('pre.response').textContent()).toContain('Select a valid choice. bogus is not one of the available choices.');
    // The filter box and its chips, to fix the URL without typing it.
    expect(await page.locator('.chips').textContent()).toContain('status=bogus');
    await Promise.all([page.waitForURL((url) => !url.search.includes('status')), page.click('.chips li:has-text("status=bogus") a')]);
    expect(await page.locator('h1').textContent()).toBe('Site List');
    expect(await page.locator('.notice').count()).toBe(0);
    await page.goto(`${SITES}?role=bogus&colour=red&status=planned`);
    expect(await page.locator('.notice').textContent()).toBe(
      'Ignored: role, colour are not filters of this list, so the answer is not filtered by them. The filter box lists those it takes.',
    );
    expect(await page.locator('.chips').textContent()).toBe('status=planned×');
    await page.goto(`${SITES}?status=bogus`);
    expect(await page.locator('.send[data-method=POST]').textContent()).toBe('Create');
    await screenshot(page, 'browsable-error');
  });

  it('links the pages for people from the root: Swagger UI, ReDoc, GraphiQL, the tasks', async () => {
    await page.goto('/api/');
    const links = await page.locator('.links a').evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
    expect(links).toEqual([
      ['Swagger UI', '/api/schema/swagger-ui/'], ['ReDoc', '/api/schema/redoc/'], ['GraphiQL', '/graphql/'], ['Background tasks', '/core/background-tasks/'],
    ]);
    for (const [, href] of links) expect((await page.request.get(href!, { headers: { Accept: 'text/html' } })).status()).toBe(200);
    await screenshot(page, 'browsable-root-links');
  });

  it('keeps the CSRF rule: a form sent with another token is refused', async () => {
    await page.goto(SITES);
    await page.evaluate(() => document.querySelector('meta[name="csrf-token"]')!.setAttribute('content', 'forged'));
    await page.fill('#body-POST', JSON.stringify({ name: 'Forged', slug: 'forged' }));
    await page.click('.send[data-method=POST]');
    await expect.poll(() => result().textContent()).toContain('HTTP 403 Forbidden');
    expect(await result().textContent()).toContain('CSRF Failed');
    expect((await t.get(`${SITES}?slug=forged`)).body.count).toBe(0);
  });

  it('shows what users wrote as text: nothing of it runs', async () => {
    const { body } = await t.get(`${SITES}?slug=hostile`);
    await page.goto(`${SITES}${body.results[0].id}/`);
    expect(await page.locator('pre.response').textContent()).toContain(JSON.stringify(HOSTILE));
    expect(await page.locator('#body-PUT').inputValue()).toContain(JSON.stringify(HOSTILE).slice(1, -1));
    expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
    expect(await page.locator('pre.response img, pre.response script').count()).toBe(0);
  });

  it('logs out, and is sent to log in again', async () => {
    await page.goto('/api/');
    // A POST form with the session's token (a link would let any page log the user out).
    await Promise.all([page.waitForURL('**/login/'), page.click('.account form.logout button:text("Log out")')]);
    await page.goto(SITES);
    expect(new URL(page.url()).pathname).toBe('/login/');
    expect(problems).toEqual([]);
  });
});

describe('the browsable page over HTTP', () => {
  it('is sent with a strict Content-Security-Policy, without forms to a token user, and escapes every text', async () => {
    const res = await t.get(`${SITES}?slug=hostile`, { headers: { Accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.text).not.toContain('<script>window');
    expect(res.text).toContain('&#60;script&#62;');
    // A token cannot send the page's forms (they post with the session's CSRF token).
    expect(res.text).not.toContain('class="card write"');
    // The request headers are shown, but not the credentials.
    expect(res.text).not.toContain(t.admin.token);
    const css = await fetch(`${t.base}/static/browsable/browsable.css`);
    expect(css.status).toBe(200);
  });
});
