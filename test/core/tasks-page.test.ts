import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../helpers/browser.js';
import { Receiver } from '../helpers/receiver.js';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';
import { until } from '../helpers/wait.js';

let t: TestServer;
let browser: Browser;
let staff: TestUser;
const receiver = new Receiver();

beforeAll(async () => {
  await receiver.start();
  t = await startServer({ settings: { WEBHOOK_ATTEMPTS: 1 } });
  staff = await t.createUser('operator');
  await t.server.db.knex('users_user').where('id', staff.id).update({ is_staff: true });
  const { body: webhook } = await t.post('/api/extras/webhooks/', { name: 'to receiver', payload_url: `${receiver.url}/` });
  await t.post('/api/extras/event-rules/', {
    name: 'tenants', object_types: ['tenancy.tenant'], event_types: ['object_created'], action_object_type: 'extras.webhook', action_object_id: webhook.id,
  });
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await receiver.stop();
});

async function logIn(page: Page, user: TestUser): Promise<void> {
  await page.goto('/core/background-tasks/');
  expect(new URL(page.url()).pathname).toBe('/login/');
  await page.fill('#username', user.username);
  await page.fill('#password', user.password);
  await Promise.all([page.waitForURL('**/core/background-tasks/'), page.click('button[type=submit]')]);
}

describe('the background tasks page', () => {
  it('lists a failed delivery with its error log; Requeue sends it again', async () => {
    receiver.answer = () => 503;
    const tenant = (await t.post('/api/tenancy/tenants/', { name: 'Paged', slug: 'paged' })).body;
    await until(async () => (await t.get(`/api/extras/webhook-deliveries/?object_id=${tenant.id}&status=failed`)).body.count === 1, 10_000, 'a failed delivery');
    const [delivery] = (await t.get(`/api/extras/webhook-deliveries/?object_id=${tenant.id}`)).body.results;

    const context = await browser.newContext({ baseURL: t.base });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await logIn(page, staff);
    const taskId = (await t.get('/api/core/background-tasks/')).body.results.find((x: { description: string }) => x.description === `Webhook delivery ${delivery.id}`).id;
    expect(taskId).toBe(delivery.job);
    const row = page.locator(`tr[data-status="failed"][data-id="${taskId}"]`);
    await expect(row.count()).resolves.toBe(1);
    await row.locator('summary').click();
    const log = await row.locator('pre').innerText();
    expect(log).toContain('Status 503 returned, webhook FAILED to process.');
    // The stack names the project's files, not where it is installed.
    expect(log).toContain('plugins/extras/webhooks/deliver.ts');
    expect(log).not.toContain(process.cwd());
    // It says which queue it shows (the tests' servers use Redis), and is sent with the browsable API's policy: its
    // style is a file of the server's, which the page shows styled.
    await expect(page.locator('.description').innerText()).resolves.toContain('bull on Redis');
    // The browsable API's frame: its header and breadcrumbs.
    expect(await page.locator('.crumbs li').allTextContents()).toEqual(['API Root', 'Core', 'Background tasks']);
    // The row says what the task is about, each with a link to its page.
    const subjects = await row.locator('dl.subjects').evaluate((dl) => [...dl.querySelectorAll('dd')].map((dd) => [dd.previousElementSibling!.textContent, dd.textContent, dd.querySelector('a')?.getAttribute('href') ?? null]));
    expect(subjects).toEqual([
      ['Webhook', 'to receiver', `/api/extras/webhooks/${delivery.webhook.id}/`],
      ['URL', `${receiver.url}/`, null],
      ['Event', 'object_created', null],
      ['Object', 'Paged', `/api/tenancy/tenants/${tenant.id}/`],
      ['Deliveries', '1', `/api/extras/webhook-deliveries/?job=${taskId}`],
    ]);
    // Each link leads to an object's API page (which answers as the reader's permissions allow: here the admin's).
    for (const [, , href] of subjects) if (href) expect((await t.get(href!)).status).toBe(200);
    expect((await t.get(`/api/extras/webhook-deliveries/?job=${taskId}`)).body.results.map((d: { id: number }) => d.id)).toEqual([delivery.id]);
    // Scheduled jobs say when they run next: the daily housekeeping, a day after the server started.
    const housekeeping = page.locator('tr[data-status="scheduled"]').filter({ hasText: 'housekeeping' }).first();
    const runsAt = Date.parse(`${(await housekeeping.locator('td').nth(4).innerText()).replace(' ', 'T')}Z`);
    expect(runsAt - Date.now()).toBeGreaterThan(23 * 3600_000);
    const served = await page.request.get('/core/background-tasks/');
    expect(served.headers()['content-security-policy']).toContain("style-src 'self'");
    await expect(page.locator('table').first().evaluate((e) => getComputedStyle(e).borderCollapse)).resolves.toBe('collapse');
    await screenshot(page, 'background-tasks-failed');

    receiver.answer = () => 200;
    // The right token from another origin (a page that got hold of it) is refused too, and requeues nothing.
    const token = await row.locator('input[name=csrfmiddlewaretoken]').inputValue();
    const foreign = await page.request.post(`/core/background-tasks/${taskId}/requeue/`, { form: { csrfmiddlewaretoken: token }, headers: { Origin: 'http://evil.example' } });
    expect(foreign.status()).toBe(403);
    expect(await foreign.text()).toContain('Origin checking failed - http://evil.example does not match any trusted origins.');
    expect((await t.get(`/api/core/background-tasks/${taskId}/`)).body.status).toBe('failed');
    // The browser's own form post carries this page's Origin.
    await Promise.all([page.waitForURL('**/core/background-tasks/?requeued=*'), row.locator('button', { hasText: 'Requeue' }).click()]);
    await expect(page.locator('[role=status]').innerText()).resolves.toBe(`Job ${taskId} requeued.`);
    await until(async () => (await t.get(`/api/extras/webhook-deliveries/${delivery.id}/`)).body.status.value === 'delivered', 10_000, 'delivered');
    expect(receiver.requests.filter((r) => r.headers['x-patchbay-delivery'] === String(delivery.id)).map(() => 'sent')).toHaveLength(2);
    await page.reload();
    await expect(page.locator(`tr[data-id="${taskId}"]`).count()).resolves.toBe(0);
    await screenshot(page, 'background-tasks-requeued');

    // The form's CSRF token is required: a post from another site (without it) is refused.
    const forged = await page.request.post(`/core/background-tasks/${taskId}/requeue/`, { form: { csrfmiddlewaretoken: 'x'.repeat(64) } });
    expect(forged.status()).toBe(403);

    // Log out is a POST form with the session's token; the session then ends.
    await Promise.all([page.waitForURL('**/login/'), page.locator('header form[action="/logout/"] button', { hasText: 'Log out' }).click()]);
    await page.goto('/core/background-tasks/');
    expect(new URL(page.url()).pathname).toBe('/login/');
    await context.close();
  }, 90_000);

  it('is for staff: others are refused, and a visitor is sent to log in', async () => {
    const context = await browser.newContext({ baseURL: t.base });
    const page = await context.newPage();
    await logIn(page, await t.createUser('nonstaff'));
    await expect(page.locator('h1').innerText()).resolves.toBe('Forbidden (403)');
    await context.close();
    const anonymous = await fetch(`${t.base}/core/background-tasks/`, { redirect: 'manual' });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toBe('/login/?next=%2Fcore%2Fbackground-tasks%2F');
  }, 60_000);
});
