import { createHmac } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Receiver } from '../helpers/receiver.js';
import { startServer, type Body, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/wait.js';
import { BUSY_STEPS, BUSY_TURN_MS } from '../../kernel/http/request-load.js';
import type { PluginContext } from '../../kernel/index.js';
import { recordOutboxed } from '../../plugins/extras/webhooks/outbox.js';
import { deliverySubjects } from '../../plugins/extras/webhooks/subjects.js';

let t: TestServer;
const receiver = new Receiver();

beforeAll(async () => {
  await receiver.start();
  t = await startServer({ settings: { WEBHOOK_RETRY_DELAY: 50, WEBHOOK_ATTEMPTS: 3 } });
});
afterAll(async () => {
  await t?.close();
  await receiver.stop();
});
beforeEach(async () => {
  receiver.requests.length = 0;
  receiver.answer = () => 200;
  for (const path of ['/api/extras/event-rules/', '/api/extras/webhooks/']) {
    const ids = (await t.get(`${path}?limit=0`)).body.results.map((r: Body) => ({ id: r.id }));
    if (ids.length) expect((await t.request('DELETE', path, { body: ids })).status).toBe(204);
  }
});

async function hook(webhook: Record<string, unknown>, rule: Record<string, unknown> = {}): Promise<{ webhook: Body; rule: Body }> {
  const w = await t.post('/api/extras/webhooks/', { name: `hook ${Math.random()}`, payload_url: `${receiver.url}/hook`, ...webhook });
  expect(w.status, w.text).toBe(201);
  const r = await t.post('/api/extras/event-rules/', {
    name: `rule ${Math.random()}`, object_types: ['dcim.site'], event_types: ['object_created', 'object_updated', 'object_deleted'],
    action_type: 'webhook', action_object_type: 'extras.webhook', action_object_id: w.body.id, ...rule,
  });
  expect(r.status, r.text).toBe(201);
  return { webhook: w.body, rule: r.body };
}

const bodies = () => receiver.requests.map((r) => JSON.parse(r.text) as Body);

describe('webhooks', () => {
  it('send the context as the default body for a create, an update and a delete, signed with the secret', async () => {
    await hook({ secret: 's3cret' });
    const created = await t.post('/api/dcim/sites/', { name: 'Hook site', slug: 'hook-site' });
    await until(() => receiver.requests.length === 1);
    const [first] = receiver.requests;
    expect(first.method).toBe('POST');
    expect(first.path).toBe('/hook');
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.headers['x-hook-signature']).toBe(createHmac('sha512', 's3cret').update(first.body).digest('hex'));
    const body = JSON.parse(first.text);
    expect(Object.keys(body)).toEqual(['event', 'timestamp', 'object_type', 'model', 'username', 'request_id', 'data', 'snapshots']);
    expect(body).toMatchObject({
      event: 'created', object_type: 'dcim.site', model: 'site', username: 'admin',
      request_id: created.headers.get('x-request-id'),
      data: { id: created.body.id, name: 'Hook site', url: `/api/dcim/sites/${created.body.id}/` },
      snapshots: { prechange: null, postchange: { name: 'Hook site', slug: 'hook-site' } },
    });
    expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
    // Python's json.dumps separators.
    expect(first.text).toContain('"event": "created", "timestamp": ');

    await t.request('PATCH', `/api/dcim/sites/${created.body.id}/`, { body: { description: 'changed' } });
    await t.request('DELETE', `/api/dcim/sites/${created.body.id}/`);
    await until(() => receiver.requests.length === 3);
    // Separate writes' jobs run at once: their deliveries may arrive in either order.
    const updated = bodies().find((b) => b.event === 'updated');
    const deleted = bodies().find((b) => b.event === 'deleted');
    expect(updated).toMatchObject({ event: 'updated', data: { description: 'changed' }, snapshots: { prechange: { description: '' }, postchange: { description: 'changed' } } });
    expect(deleted).toMatchObject({ event: 'deleted', data: { name: 'Hook site' }, snapshots: { prechange: { description: 'changed' }, postchange: null } });
  });

  it('send one event per object of a bulk create', async () => {
    await hook({});
    const made = await t.post('/api/dcim/sites/', [1, 2, 3].map((n) => ({ name: `Bulk ${n}`, slug: `bulk-${n}` })));
    expect(made.status).toBe(201);
    await until(() => receiver.requests.length === 3);
    expect(bodies().map((b) => b.data.name).sort()).toEqual(['Bulk 1', 'Bulk 2', 'Bulk 3']);
    expect(new Set(bodies().map((b) => b.request_id))).toEqual(new Set([made.headers.get('x-request-id')]));
  });

  it('fail no write when a webhook went before this process reloaded its rules: the events of others still deliver', async () => {
    const gone = await hook({});
    await hook({}, { name: 'stays' });
    // The moment before this process hears of the change: its rules still name the webhook and its rule.
    await t.server.db.knex.raw('delete from extras_eventrule where id = ?', [gone.rule.id]);
    await t.server.db.knex.raw('delete from extras_webhook where id = ?', [gone.webhook.id]);
    const made = await t.post('/api/dcim/sites/', { name: 'After the delete', slug: 'after-the-delete' });
    expect(made.status, made.text).toBe(201);
    await until(() => receiver.requests.length === 1);
    await t.server.eventsTaken();
    expect((await t.get(`/api/extras/webhook-deliveries/?object_id=${made.body.id}`)).body.results.map((d: Body) => d.webhook.id)).not.toContain(gone.webhook.id);
    expect(receiver.requests).toHaveLength(1);
  });

  it('render the URL, the headers and the body as Jinja2 templates over the context', async () => {
    await hook({
      payload_url: `${receiver.url}/{{ model }}/{{ data.slug }}/?e={{ event }}`,
      http_method: 'PUT',
      http_content_type: 'text/plain',
      additional_headers: 'X-Who: {{ username }}\nContent-Type: application/x-custom',
      body_template: '{{ event }} {{ data.name|upper }} by {{ username }}{% if snapshots.prechange is none %} (new){% endif %}',
    });
    await t.post('/api/dcim/sites/', { name: 'Templated', slug: 'templated' });
    await until(() => receiver.requests.length === 1);
    const [req] = receiver.requests;
    expect(req).toMatchObject({ method: 'PUT', path: '/site/templated/?e=created', text: 'created TEMPLATED by admin (new)' });
    expect(req.headers).toMatchObject({ 'x-who': 'admin', 'content-type': 'application/x-custom' });
    expect(req.headers['x-hook-signature']).toBeUndefined();
  });

  it('fire only when the conditions hold, with action data merged under the data', async () => {
    await hook({}, {
      conditions: { and: [{ attr: 'status.value', value: 'active' }, { or: [{ attr: 'name', value: 'Skip', negate: true }, { attr: 'tags.slug', value: 'x', op: 'contains' }] }] },
      action_data: { source: 'patchbay', name: 'overridden by the data' },
    });
    await t.post('/api/dcim/sites/', [
      { name: 'Planned', slug: 'planned', status: 'planned' },
      { name: 'Skip', slug: 'skip', status: 'active' },
      { name: 'Fires', slug: 'fires', status: 'active' },
    ]);
    await until(() => receiver.requests.length >= 1);
    // A later write's event shows that the first write's other events were not held back.
    await t.post('/api/dcim/sites/', { name: 'Fires too', slug: 'fires-too' });
    await until(() => receiver.requests.length === 2);
    expect(bodies().map((b) => b.data.name)).toEqual(['Fires', 'Fires too']);
    expect(bodies()[0].data).toMatchObject({ source: 'patchbay', name: 'Fires' });
    // As NetBox's `action_data.update(data)`: the action data's keys first.
    expect(Object.keys(bodies()[0].data).indexOf('source')).toBeLessThan(Object.keys(bodies()[0].data).indexOf('id'));
  });

  it('refuse conditions of a bad structure under `conditions`', async () => {
    const { body: w } = await t.post('/api/extras/webhooks/', { name: 'cond hook', payload_url: receiver.url });
    const base = { name: 'bad', object_types: ['dcim.site'], event_types: ['object_created'], action_object_type: 'extras.webhook', action_object_id: w.id };
    const cases: [unknown, string][] = [
      [{ attr: 'x', value: 1, op: 'regex' }, "Invalid type for regex operation: <class 'int'>"],
      [{ attr: 'x', value: 'a', op: 'nope' }, 'Unknown operator: nope. Must be one of: eq, gt, gte, lt, lte, in, contains, regex'],
      [{ xor: [] }, "Invalid logic type: must be 'AND' or 'OR'. Please check documentation."],
      [{ attr: 'x' , value: 'a', extra: 1 }, 'Incorrect key(s) informed. Please check documentation.'],
      [{ attr: 'x', value: { a: 1 } }, "Unsupported value type: <class 'dict'>"],
      [['a'], "Ruleset must be a dictionary, not <class 'list'>."],
      [{ attr: 'x', value: '(', op: 'regex' }, 'Enter a valid regular expression'],
    ];
    for (const [conditions, message] of cases) {
      const res = await t.post('/api/extras/event-rules/', { ...base, conditions });
      expect(res.status, JSON.stringify(conditions)).toBe(400);
      expect(res.body.conditions[0]).toContain(message);
    }
    const bad = await t.post('/api/extras/event-rules/', { ...base, event_types: ['object_exploded'], object_types: ['dcim.nothing'] });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body).sort()).toEqual(['event_types', 'object_types']);
    expect((await t.get('/api/extras/event-rules/')).body.count).toBe(0);
  });

  it('refuse payload URLs whose literal scheme is not http(s), naming the field, and write nothing', async () => {
    const WEBHOOKS = '/api/extras/webhooks/';
    const refused: [string, RegExp][] = [
      ['file:///etc/passwd', /scheme must be http or https, not "file"/],
      ['gopher://127.0.0.1:6379/_INFO', /not "gopher"/],
      ['ftp://example.com/x', /not "ftp"/],
      ['javascript:alert(1)', /not "javascript"/],
      ['JavaScript:alert(1)', /not "JavaScript"/],
      ['   FILE:///etc/passwd', /not "FILE"/],
      ['localhost:9000/hook', /not "localhost"/],
      ['file:///{{ data.name }}', /not "file"/],
      ['example.com/hook', /must start with http:\/\/ or https:\/\//],
      ['/hooks/{{ data.slug }}', /must start with http:\/\/ or https:\/\//],
      ['http://example.com/\r\nX-Injected: 1', /control characters/],
    ];
    for (const [payload_url, message] of refused) {
      const res = await t.post(WEBHOOKS, { name: `bad ${Math.random()}`, payload_url });
      expect(res.status, payload_url).toBe(400);
      expect(Object.keys(res.body), payload_url).toEqual(['payload_url']);
      expect(res.body.payload_url[0], payload_url).toMatch(message);
    }
    // One bad webhook of a bulk create refuses them all.
    const bulk = await t.post(WEBHOOKS, [{ name: 'fine', payload_url: 'https://example.com/' }, { name: 'bad', payload_url: 'file:///x' }]);
    expect(bulk.status).toBe(400);
    expect(bulk.body[1].payload_url).toHaveLength(1);
    expect((await t.get(`${WEBHOOKS}?name=fine`)).body.count).toBe(0);

    // Accepted: http and https in any case, and URLs a template makes (checked when delivered); text is trimmed, as DRF's.
    const accepted = ['HTTPS://example.com/hook', ' https://example.com/hook\n', 'http://example.com/{{ data.slug }}', '{{ data.url }}', '{{ scheme }}://example.com/', 'http{{ "s" if data.secure }}://example.com/', 'http://127.0.0.1:9/{{ nope('];
    for (const payload_url of accepted) expect((await t.post(WEBHOOKS, { name: `ok ${Math.random()}`, payload_url })).status, payload_url).toBe(201);

    // An update is refused the same way and leaves the webhook as it was.
    const { body: hook } = await t.post(WEBHOOKS, { name: 'to patch', payload_url: 'https://example.com/a' });
    const patched = await t.request('PATCH', `${WEBHOOKS}${hook.id}/`, { body: { payload_url: 'file:///etc/shadow' } });
    expect(patched.status).toBe(400);
    expect((await t.get(`${WEBHOOKS}${hook.id}/`)).body.payload_url).toBe('https://example.com/a');
    // A webhook stored before these checks can still be edited otherwise.
    await t.server.db.knex('extras_webhook').where('id', hook.id).update({ payload_url: 'ftp://legacy/' });
    expect((await t.request('PATCH', `${WEBHOOKS}${hook.id}/`, { body: { description: 'kept' } })).status).toBe(200);
  });

  it('refuse additional headers that are not "Name: Value" lines, naming the line, and accept NetBox\'s', async () => {
    const WEBHOOKS = '/api/extras/webhooks/';
    const before = (await t.get(`${WEBHOOKS}?limit=1`)).body.count;
    const refused: [string, string][] = [
      ['X-A: b\nBad Header: x', 'Line 2: "Bad Header" is not a valid HTTP header name.'],
      ['no colon', 'Line 1: expected "Name: Value", got "no colon".'],
      ['X-A: b\n: empty', 'Line 2: the header has no name.'],
      ['X-A: b\rX-Injected: 1', 'Line 1: headers may not contain control characters other than tab.'],
      ['X-A: b\n\nX-B: bell \u0007', 'Line 3: headers may not contain control characters other than tab.'],
      ['X-Ok: {{ data.name }}\nX(1): {{ data.id }}', 'Line 2: "X(1)" is not a valid HTTP header name.'],
      ['X-\u00e9: x', 'Line 1: "X-\u00e9" is not a valid HTTP header name.'],
    ];
    for (const [additional_headers, message] of refused) {
      const res = await t.post(WEBHOOKS, { name: `bad ${Math.random()}`, payload_url: `${receiver.url}/`, additional_headers });
      expect(res.status, additional_headers).toBe(400);
      expect(res.body, additional_headers).toEqual({ additional_headers: [message] });
    }
    expect((await t.get(`${WEBHOOKS}?limit=1`)).body.count).toBe(before);

    const accepted = [
      'X-Source: netbox',
      'X-A: b\r\nX-B: c',
      'X-A: b\n\nX-B: c',
      ' X-Spaced : value\twith a tab',
      'Authorization: Token {{ data.custom_fields.token }}',
      '{{ name }}: {{ value }}',
      'X-{{ data.slug }}: 1',
      '{% for tag in data.tags %}X-Tag-{{ loop.index }}: {{ tag.slug }}\n{% endfor %}',
      '{% if data.secret %}\nX-Secret: {{ data.secret }}\n{% endif %}',
      'X-Empty:',
    ];
    for (const additional_headers of accepted) {
      const res = await t.post(WEBHOOKS, { name: `ok ${Math.random()}`, payload_url: `${receiver.url}/`, additional_headers });
      expect(res.status, `${additional_headers}: ${res.text}`).toBe(201);
    }
    // Lines ending in CRLF (a browser's textarea) are delivered as separate headers.
    await hook({ additional_headers: 'X-A: one\r\nX-B: two' });
    await t.post('/api/dcim/sites/', { name: 'Crlf', slug: 'crlf' });
    await until(() => receiver.requests.length === 1);
    expect(receiver.requests[0].headers).toMatchObject({ 'x-a': 'one', 'x-b': 'two' });
  });

  it('send nothing for a write that rolled back, and one event for several changes of one object in one write', async () => {
    await hook({});
    const refused = await t.post('/api/dcim/sites/', [{ name: 'Kept?', slug: 'kept' }, { name: 'Kept?', slug: 'kept-2' }]);
    expect(refused.status).toBe(400);
    const { DcimSite } = { DcimSite: t.server.registry.get('dcim.site') };
    await t.server.system.write(async (s) => {
      const [row] = await s.create(DcimSite, [{ name: 'Brief life', slug: 'brief-life' }]);
      await s.update(DcimSite, [{ id: row.id, body: { description: 'first' } }], 'partial');
      await s.update(DcimSite, [{ id: row.id, body: { description: 'second' } }], 'partial');
    });
    await until(() => receiver.requests.length >= 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(bodies()).toHaveLength(1);
    expect(bodies()[0]).toMatchObject({ event: 'created', data: { name: 'Brief life', description: 'second' }, snapshots: { prechange: null, postchange: { description: 'second' } } });
    const gone = await t.server.system.write(async (s) => {
      const [row] = await s.create(DcimSite, [{ name: 'Gone', slug: 'gone' }]);
      await s.update(DcimSite, [{ id: row.id, body: { description: 'x' } }], 'partial');
      await s.delete(DcimSite, [{ id: row.id }]);
      return row.id;
    });
    await until(() => receiver.requests.length === 2);
    expect(bodies()[1]).toMatchObject({ event: 'deleted', data: { id: gone, description: 'x' }, snapshots: { prechange: null, postchange: null } });
  });

  it('retry a failed delivery with backoff, record every attempt, and mark it failed after the last', async () => {
    const { webhook } = await hook({});
    let calls = 0;
    receiver.answer = () => (++calls === 1 ? 503 : 200);
    const first = await t.post('/api/dcim/sites/', { name: 'Retried', slug: 'retried' });
    await until(() => receiver.requests.length === 2);
    const log = `/api/extras/webhook-deliveries/?webhook_id=${webhook.id}`;
    await until(async () => (await t.get(log)).body.results[0]?.status.value === 'delivered');
    const [delivered] = (await t.get(log)).body.results;
    expect(delivered).toMatchObject({
      event: 'object_created', object_type: 'dcim.site', object_id: first.body.id, request_id: first.headers.get('x-request-id'),
      attempts: [
        { attempt: 1, status_code: 503, error: 'Status 503 returned, webhook FAILED to process.', response: 'nope 503' },
        { attempt: 2, status_code: 200, error: null, response: 'ok' },
      ],
    });
    expect(delivered.completed).not.toBeNull();
    expect(receiver.requests[0].headers['x-patchbay-delivery']).toBe(String(delivered.id));

    receiver.answer = () => 500;
    const doomed = await t.post('/api/dcim/sites/', { name: 'Doomed', slug: 'doomed' });
    const perEvent = `/api/extras/webhook-deliveries/?request_id=${doomed.headers.get('x-request-id')}&object_type=dcim.site&object_id=${doomed.body.id}`;
    await until(async () => (await t.get(perEvent)).body.results[0]?.status.value === 'failed');
    const [failed] = (await t.get(perEvent)).body.results;
    expect(failed.attempts.map((a: Body) => a.status_code)).toEqual([500, 500, 500]);
    const gaps = failed.attempts.slice(1).map((a: Body, i: number) => Date.parse(a.started) - Date.parse(failed.attempts[i].started));
    expect(gaps[1]).toBeGreaterThan(gaps[0]);
  });

  it('send the deliveries of a write by jobs of 100, each sending again only those that failed', async () => {
    const { webhook } = await hook({});
    // Site 7 is refused once; every other arrives the first time.
    let refused = false;
    receiver.answer = (req) => {
      if (JSON.parse(req.text).data.name !== 'Batch 7' || refused) return 200;
      refused = true;
      return 500;
    };
    const made = await t.post('/api/dcim/sites/', Array.from({ length: 150 }, (_, i) => ({ name: `Batch ${i}`, slug: `batch-${i}` })));
    expect(made.status).toBe(201);
    const log = `/api/extras/webhook-deliveries/?webhook_id=${webhook.id}&limit=0&ordering=id`;
    const delivered = async () => (await t.get(log)).body.results.filter((d: Body) => d.status.value === 'delivered').length;
    await until(async () => (await delivered()) === 150, 20_000, 'every delivery');
    const deliveries = (await t.get(log)).body.results as Body[];
    expect(deliveries).toHaveLength(150);
    // Two jobs, in the order of the events: the first 100 deliveries, then the other 50.
    const jobs = [...new Set(deliveries.map((d) => d.job))];
    expect(jobs).toHaveLength(2);
    expect(deliveries.map((d) => d.job)).toEqual([...Array(100).fill(jobs[0]), ...Array(50).fill(jobs[1])]);
    expect(deliveries.every((d) => d.sending === null)).toBe(true);
    // Each was sent once, but site 7's, sent again by the job's second run (the others it did not send again).
    const seven = deliveries.find((d) => d.object_id === made.body[7].id)!;
    expect(seven.attempts.map((a: Body) => [a.attempt, a.status_code])).toEqual([[1, 500], [2, 200]]);
    expect(deliveries.filter((d) => d !== seven).every((d) => d.attempts.length === 1)).toBe(true);
    expect(receiver.requests).toHaveLength(151);
    // The job's first run failed naming the delivery; its second finished it.
    const task = (await t.get(`/api/core/background-tasks/${jobs[0]}/`)).body;
    expect(task).toMatchObject({
      func_name: 'extras.deliver_webhook', description: `Webhook deliveries ${deliveries[0].id} to ${deliveries[99].id} (100)`, status: 'finished',
      meta: { attempts_made: 2, errors: [expect.stringContaining(`1 of 100 deliveries failed (each one's log has its attempts): delivery ${seven.id}: Status 500 returned`)] },
    });
  });

  it('yield to the requests of their process: a few deliveries a turn while one is under way, then the rest at once', async () => {
    await hook({});
    // A request under way: its headers sent (a token, so that it is not refused before its body), its body not yet.
    const { hostname, port } = new URL(t.base);
    const held = connect(Number(port), hostname);
    held.on('error', () => undefined);
    await new Promise((ok) => held.once('connect', ok));
    held.write(`POST /api/dcim/sites/ HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Token ${t.admin.token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`);
    const from = performance.now();
    const made = await t.post('/api/dcim/sites/', Array.from({ length: 150 }, (_, i) => ({ name: `Busy ${i}`, slug: `busy-${i}` })));
    expect(made.status).toBe(201);
    await new Promise((r) => setTimeout(r, 1500));
    const whileBusy = receiver.requests.length;
    const busyFor = performance.now() - from;
    held.destroy();
    // BUSY_STEPS a turn at most (timers that fire late make fewer), and never none.
    expect(whileBusy).toBeGreaterThan(0);
    expect(whileBusy).toBeLessThanOrEqual((Math.ceil(busyFor / BUSY_TURN_MS) + 1) * BUSY_STEPS);
    await until(() => receiver.requests.length >= 150, 20_000, 'every delivery');
    await new Promise((r) => setTimeout(r, 200));
    expect(new Set(bodies().map((b) => b.data.name)).size).toBe(150);
    expect(receiver.requests).toHaveLength(150);
  });

  it('record a connection error and a template error as failed attempts', async () => {
    const { webhook } = await hook({ payload_url: 'http://127.0.0.1:9/{{ nope(', body_template: '' });
    await t.post('/api/dcim/sites/', { name: 'Broken', slug: 'broken' });
    const log = `/api/extras/webhook-deliveries/?webhook_id=${webhook.id}`;
    await until(async () => (await t.get(log)).body.results[0]?.status.value === 'failed');
    expect((await t.get(log)).body.results[0].attempts[0].error).toMatch(/An error occurred while rendering the template/);
    await t.request('PATCH', `/api/extras/webhooks/${webhook.id}/`, { body: { payload_url: 'http://127.0.0.1:9/' } });
    await t.post('/api/dcim/sites/', { name: 'Unreachable', slug: 'unreachable' });
    await until(async () => (await t.get(log)).body.count === 2 && (await t.get(log)).body.results[0].status.value === 'failed');
    expect((await t.get(log)).body.results[0].attempts[0].error).toMatch(/ECONNREFUSED/);
  });

  it('refuse a header value that brings a line break of its own, failing the attempt rather than adding a header', async () => {
    const { webhook } = await hook({ additional_headers: 'X-Name: {{ data.name }}\n{% for t in data.tags %}X-Tag: {{ t.slug }}\n{% endfor %}' });
    await t.post('/api/dcim/sites/', { name: 'Plain', slug: 'plain' });
    await until(() => receiver.requests.length === 1);
    expect(receiver.requests[0].headers).toMatchObject({ 'x-name': 'Plain' });
    await t.post('/api/dcim/sites/', { name: 'a\nX-Evil: 1', slug: 'evil' });
    const log = `/api/extras/webhook-deliveries/?webhook_id=${webhook.id}&status=failed`;
    await until(async () => (await t.get(log)).body.count === 1, 10_000, 'the delivery failed');
    const [failed] = (await t.get(log)).body.results;
    expect(failed.attempts).toHaveLength(3);
    expect(failed.attempts[0].error).toMatch(/\(line 1\): a printed value holds a line break, which would add a header: "a\\nX-Evil: 1"/);
    expect(receiver.requests).toHaveLength(1);
  });
});

describe('what the delivery log keeps of an answer (WEBHOOK_RESPONSE_BYTES)', () => {
  it('keeps its first bytes, or none', async () => {
    for (const [bytes, kept] of [[4, 'nope'], [0, '']] as const) {
      const capped = await startServer({ settings: { WEBHOOK_RESPONSE_BYTES: bytes, WEBHOOK_ATTEMPTS: 1 } });
      try {
        const { body: w } = await capped.post('/api/extras/webhooks/', { name: 'capped', payload_url: `${receiver.url}/` });
        await capped.post('/api/extras/event-rules/', {
          name: 'r', object_types: ['tenancy.tenant'], event_types: ['object_created'], action_object_type: 'extras.webhook', action_object_id: w.id,
        });
        receiver.answer = () => 500;
        await capped.post('/api/tenancy/tenants/', { name: 'Capped', slug: 'capped' });
        await until(async () => (await capped.get('/api/extras/webhook-deliveries/?status=failed')).body.count === 1);
        const [delivery] = (await capped.get('/api/extras/webhook-deliveries/')).body.results;
        expect(delivery.attempts[0]).toMatchObject({ status_code: 500, response: kept });
      } finally {
        await capped.close();
      }
    }
  });
});

describe('the SSRF guard (WEBHOOK_REFUSE_LOCAL)', () => {
  it('refuses a payload URL that resolves to this machine, and says so in the delivery log', async () => {
    const guarded = await startServer({ settings: { WEBHOOK_REFUSE_LOCAL: true, WEBHOOK_ATTEMPTS: 1 } });
    try {
      const { body: w } = await guarded.post('/api/extras/webhooks/', { name: 'local', payload_url: `${receiver.url.replace('127.0.0.1', 'localhost')}/` });
      await guarded.post('/api/extras/event-rules/', {
        name: 'r', object_types: ['tenancy.tenant'], event_types: ['object_created'], action_object_type: 'extras.webhook', action_object_id: w.id,
      });
      receiver.requests.length = 0;
      await guarded.post('/api/tenancy/tenants/', { name: 'Guarded', slug: 'guarded' });
      const log = '/api/extras/webhook-deliveries/';
      await until(async () => (await guarded.get(log)).body.results[0]?.status.value === 'failed');
      expect((await guarded.get(log)).body.results[0].attempts[0].error).toMatch(/^Refused: localhost resolves to (127\.0\.0\.1|::1), a local address/);
      expect(receiver.requests).toHaveLength(0);
    } finally {
      await guarded.close();
    }
  });
});

describe('the write budget with an enabled rule', () => {
  it('is the same for 1 or 100 objects: deliveries left in the outbox with the write, recorded by their jobs', async () => {
    // No jobs run in this server, so only the writes' own statements are counted.
    const quiet = await startServer({ settings: { RUN_JOBS: false } });
    try {
      const { body: w } = await quiet.post('/api/extras/webhooks/', { name: 'flat', payload_url: receiver.url });
      await quiet.post('/api/extras/event-rules/', {
        name: 'flat', object_types: ['dcim.site'], event_types: ['object_created'], action_object_type: 'extras.webhook', action_object_id: w.id,
      });
      const counts: number[] = [];
      for (const size of [1, 100]) {
        const bodies = Array.from({ length: size }, (_, i) => ({ name: `Flat ${size}-${i}`, slug: `flat-${size}-${i}` }));
        counts.push(await quiet.countQueries(async () => expect((await quiet.post('/api/dcim/sites/', bodies)).status).toBe(201)));
      }
      expect(counts[0]).toBe(counts[1]);
      // No job ran: the 101 deliveries wait in the outbox, two rows (jobs of up to 100), their ids drawn.
      const { rows } = (await quiet.server.db.knex.raw(`select cardinality(ids) as n from extras_webhookoutbox order by id`)) as { rows: { n: number }[] };
      expect(rows.map((r) => r.n)).toEqual([1, 100]);
      expect((await quiet.get('/api/extras/webhook-deliveries/?limit=1')).body.count).toBe(0);
    } finally {
      await quiet.close();
    }
  });
});

describe('deliveries in the outbox', () => {
  it('are recorded once by their job, with the ids drawn for them, for the webhooks and rules still there; the tasks page names them meanwhile', async () => {
    // No jobs run in this server: the test records the outbox's rows as a job's runs would.
    const quiet = await startServer({ settings: { RUN_JOBS: false } });
    try {
      const hooks: Body[] = [];
      for (const name of ['kept', 'gone']) {
        const { body: w } = await quiet.post('/api/extras/webhooks/', { name, payload_url: `${receiver.url}/${name}` });
        await quiet.post('/api/extras/event-rules/', {
          name, object_types: ['dcim.site'], event_types: ['object_created'], action_object_type: 'extras.webhook', action_object_id: w.id,
        });
        hooks.push(w);
      }
      const made = await quiet.post('/api/dcim/sites/', [1, 2].map((n) => ({ name: `Outboxed ${n}`, slug: `outboxed-${n}` })));
      expect(made.status).toBe(201);
      const db = quiet.server.db.knex;
      const [row] = (await db.raw(`select id::text, job, ids from extras_webhookoutbox`)).rows as { id: string; job: string; ids: number[] }[];
      expect(row.ids).toHaveLength(4);

      // Before its job starts, the tasks page tells what it is about from the outbox.
      const ctx = { db } as unknown as PluginContext;
      const subjects = (await deliverySubjects([{ id: row.job }], ctx)).get(row.job)!;
      expect(subjects.filter((s) => s.label === 'Webhook').map((s) => s.text).sort()).toEqual(['gone', 'kept']);
      expect(subjects.filter((s) => s.label === 'Object').map((s) => s.text).sort()).toEqual(['Outboxed 1', 'Outboxed 1', 'Outboxed 2', 'Outboxed 2']);
      expect(subjects.find((s) => s.label === 'Deliveries')!.text).toBe('4');

      // A webhook deleted before the job starts makes no delivery; a second run of the job records nothing more.
      await quiet.delete(`/api/extras/webhooks/${hooks[1].id}/`);
      await recordOutboxed(db, row.id);
      await recordOutboxed(db, row.id);
      const recorded = (await db.raw(`select id, webhook_id, object_id, status, job, context -> 'data' ->> 'name' as name from extras_webhookdelivery order by id`)).rows as Body[];
      expect(recorded.map(({ id: _, ...rest }) => rest)).toEqual(made.body.map((site: Body) => ({
        webhook_id: hooks[0].id, object_id: site.id, status: 'pending', job: row.job, name: site.name,
      })));
      // Under ids drawn in the write, in its order (those of the other webhook's deliveries are left unused).
      expect(recorded.every((d) => row.ids.includes(d.id as number))).toBe(true);
      expect((await db.raw(`select count(*)::int as n from extras_webhookoutbox`)).rows[0].n).toBe(0);
      // The log shows them as the API does, with their context in its key order.
      const [first] = (await quiet.get(`/api/extras/webhook-deliveries/?job=${row.job}&ordering=id`)).body.results;
      expect(Object.keys(first.context)).toEqual(['event', 'timestamp', 'object_type', 'model', 'username', 'request_id', 'data', 'snapshots']);
      expect(first.context.data.id).toBe(made.body[0].id);
    } finally {
      await quiet.close();
    }
  });
});
