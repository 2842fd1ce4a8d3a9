import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/raw.js';
import { seedTenancy } from '../helpers/seed.js';
import { EXAMPLE_PLUGIN, startServer, type TestServer, type TestUser } from '../helpers/server.js';
import { body, HOSTILE_IDS, HOSTILE_JSON, HOSTILE_TEXT, listQuery, targets, type ModelTarget } from './generate.js';
import { Fuzz, json, type Sent } from './harness.js';

/**
 * A seeded, bounded fuzz of every endpoint of every enabled plugin (the example plugin included), generated
 * from the model declarations: hostile filters, bodies, ids, headers and content types, refused writes and a
 * concurrency pass. It fails on any 5xx, any hang, any answer that shows SQL or a stack, and any change a
 * refused request made; a failure prints the seed (FUZZ_SEED=<seed> npm test replays it) and the requests.
 */

const f = new Fuzz('test/fuzz/fuzz.test.ts');
const { r, seed } = f;

let t: TestServer;
let limited: TestUser;
let models: ModelTarget[];
/** The status of one request; failures are recorded by the harness. */
const send = async (req: Sent, token?: string | null) => (await f.send(req, token)).status;

const detail = (target: ModelTarget) => `${target.path}${r.pick(HOSTILE_IDS)}/`;

/** One request against one model, of a kind drawn at random. */
function modelRequest(target: ModelTarget): Sent {
  const kind = r.next();
  if (kind < 0.35) return { method: 'GET', path: `${target.path}?${listQuery(r, target)}` };
  if (kind < 0.45) return { method: 'GET', path: `${detail(target)}?${r.chance(0.3) ? listQuery(r, target) : ''}` };
  if (kind < 0.62) return { method: 'POST', path: target.path, body: json(r.chance(0.3) ? r.some([body(r, target), r.pick(HOSTILE_JSON)], 3) : body(r, target)) };
  if (kind < 0.77) return { method: r.pick(['PATCH', 'PUT']), path: detail(target), body: json(body(r, target)) };
  if (kind < 0.87) {
    const items = r.some([0, 1, 2], 4).map(() => ({ id: r.pick([...HOSTILE_IDS.map(Number), r.pick(HOSTILE_JSON)]), ...body(r, target) }));
    return { method: r.pick(['PATCH', 'PUT', 'DELETE']), path: target.path, body: json(r.chance(0.1) ? r.pick(HOSTILE_JSON) : items) };
  }
  if (kind < 0.9) return { method: 'DELETE', path: detail(target), body: r.chance(0.3) ? json({ changelog_message: r.pick(HOSTILE_JSON) }) : undefined };
  if (kind < 0.93) return { method: 'OPTIONS', path: r.chance(0.5) ? target.path : detail(target) };
  // Bodies that are not what they say they are.
  const raw = r.pick(['{', '{"name": ', '[[[[[[[[[[]]]]]]]]]]', '{"a":1,"a":2}', 'null', '"text"', '1e999999', '\u0000', '{"name":"\\ud800"}', json(JSON.parse('[' + '['.repeat(200) + ']'.repeat(200) + ']'))]);
  const type = r.pick(['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/json; charset=latin1', 'application/vnd.api+json']);
  return { method: r.pick(['POST', 'PATCH', 'PUT', 'DELETE']), path: r.chance(0.5) ? target.path : detail(target), body: raw, headers: { 'Content-Type': type } };
}

/** Requests to the routes that are not model endpoints. */
function otherRequest(): Sent {
  return r.pick<Sent>([
    { method: 'GET', path: `/api/plugins/maintenance/upcoming/?${new URLSearchParams({ q: r.pick(HOSTILE_TEXT) })}` },
    { method: 'POST', path: '/api/users/tokens/provision/', body: json({ username: r.pick(HOSTILE_JSON), password: r.pick(HOSTILE_JSON), expires: r.pick(HOSTILE_JSON) }) },
    { method: 'GET', path: `/api/${r.pick(['', 'status/', 'tenancy/', 'plugins/', 'nope/', 'TENANCY/', '%00/', '..%2f/'])}` },
    { method: 'GET', path: `/login/?${new URLSearchParams({ next: r.pick(HOSTILE_TEXT) })}` },
    { method: 'POST', path: '/login/', body: new URLSearchParams({ username: r.pick(HOSTILE_TEXT), password: r.pick(HOSTILE_TEXT), next: r.pick(HOSTILE_TEXT) }).toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
    { method: 'GET', path: `/media/${r.pick(['x.png', '../secret_key', '%2e%2e/secret_key', 'image-attachments/'])}` },
    { method: 'POST', path: '/api/extras/image-attachments/', body: `--b\r\nContent-Disposition: form-data; name="object_type"\r\n\r\n${r.pick(HOSTILE_TEXT)}\r\n--b--\r\n`, headers: { 'Content-Type': 'multipart/form-data; boundary=b' } },
    // The plugins' sub-endpoints: allocation (hostile limits, bodies and ids) and rack elevations.
    { method: 'GET', path: `${allocation()}?${new URLSearchParams({ limit: r.pick(HOSTILE_TEXT), offset: r.pick(HOSTILE_TEXT) })}` },
    { method: r.pick(['POST', 'PUT', 'DELETE']), path: allocation(), body: json(r.pick([r.pick(HOSTILE_JSON), [r.pick(HOSTILE_JSON)], {}, [{}, {}], { prefix_length: r.pick(HOSTILE_JSON), status: r.pick(HOSTILE_JSON) }])) },
    { method: 'GET', path: `/api/dcim/racks/${r.pick(HOSTILE_IDS)}/elevation/?${new URLSearchParams({ face: r.pick(HOSTILE_TEXT), render: r.pick(['json', 'svg', r.pick(HOSTILE_TEXT)]), unit_width: r.pick(HOSTILE_TEXT), q: r.pick(HOSTILE_TEXT) })}` },
    // Cabling: cables with terminations of every kind (or none), traces, paths and the connected-device locator.
    { method: r.pick(['POST', 'PATCH']), path: r.pick(['/api/dcim/cables/', `/api/dcim/cables/${r.pick(HOSTILE_IDS)}/`]), body: json({ a_terminations: terminations(), b_terminations: terminations(), status: r.pick(['planned', r.pick(HOSTILE_JSON)]) }) },
    { method: 'GET', path: `/api/dcim/${r.pick(['interfaces', 'console-ports', 'console-server-ports', 'power-ports', 'power-outlets', 'power-feeds', 'front-ports'])}/${r.pick(HOSTILE_IDS)}/trace/` },
    { method: 'GET', path: `/api/${r.pick(['dcim/front-ports', 'dcim/rear-ports', 'circuits/circuit-terminations', 'dcim/interfaces'])}/${r.pick(HOSTILE_IDS)}/paths/` },
    { method: 'GET', path: `/api/dcim/connected-device/?${new URLSearchParams({ peer_device: r.pick(['fuzz-a', 'fuzz-b', r.pick(HOSTILE_TEXT)]), peer_interface: r.pick(['e1', 'e2', r.pick(HOSTILE_TEXT)]) })}` },
  ]);
}

/** One end of a cable: objects that exist or not, of kinds that take cables or not. */
function terminations(): unknown {
  if (r.chance(0.15)) return r.pick(HOSTILE_JSON);
  const type = r.pick(['dcim.interface', 'dcim.frontport', 'dcim.rearport', 'dcim.powerport', 'circuits.circuittermination', 'dcim.device', r.pick(HOSTILE_TEXT)]);
  return r.some([1, 2, 3, 4, r.pick(HOSTILE_JSON)], 2).map((id) => (r.chance(0.1) ? r.pick(HOSTILE_JSON) : { object_type: type, object_id: id }));
}

/** An allocation sub-endpoint of an object that may or may not exist. */
function allocation(): string {
  const [list, sub] = r.pick([['prefixes', 'available-ips'], ['prefixes', 'available-prefixes'], ['ip-ranges', 'available-ips'], ['vlan-groups', 'available-vlans'], ['asn-ranges', 'available-asns']]);
  return `/api/ipam/${list}/${r.pick(HOSTILE_IDS)}/${sub}/`;
}

beforeAll(async () => {
  t = await startServer({ plugins: [EXAMPLE_PLUGIN] });
  f.target(t);
  await seedTenancy(t.server.db.knex, 5);
  await t.post('/api/extras/tags/', [{ name: 'Gold', slug: 'gold' }, { name: 'Edge', slug: 'edge' }]);
  await t.post('/api/extras/custom-fields/', [
    { name: 'note', type: 'text', object_types: ['tenancy.tenant', 'tenancy.contact', 'maintenance.window'], validation_regex: '^[a-z ]*$' },
    { name: 'count', type: 'integer', object_types: ['tenancy.tenant'], unique: true },
  ]);
  await t.post('/api/plugins/maintenance/windows/', [
    { name: 'Fuzz 1', starts: '2031-01-01T00:00:00Z', notify: false, target_version: '1.2.3' },
    { name: 'Fuzz 2', starts: '2031-02-01T00:00:00Z', notify: false, tenant: 1 },
  ]);
  await t.post('/api/extras/journal-entries/', { assigned_object_type: 'tenancy.tenant', assigned_object_id: 1, comments: 'seed' });
  // Parents for the allocation sub-endpoints (ids 1 and 2 exist; the fuzz adds and removes others).
  await t.post('/api/ipam/prefixes/', [{ prefix: '10.0.0.0/8' }, { prefix: '2001:db8::/32', is_pool: true }]);
  await t.post('/api/ipam/ip-ranges/', [{ start_address: '10.1.0.1/16', end_address: '10.1.0.200/16' }, { start_address: '2001:db8::1/64', end_address: '2001:db8::ff/64' }]);
  await t.post('/api/ipam/vlan-groups/', [{ name: 'Fuzz 1', slug: 'fuzz-1' }, { name: 'Fuzz 2', slug: 'fuzz-2', vid_ranges: [[100, 110]] }]);
  const { body: rir } = await t.post('/api/ipam/rirs/', { name: 'Fuzz', slug: 'fuzz' });
  await t.post('/api/ipam/asn-ranges/', [{ name: 'Fuzz 1', slug: 'fuzz-1', rir: rir.id, start: 64512, end: 64600 }, { name: 'Fuzz 2', slug: 'fuzz-2', rir: rir.id, start: 4200000000, end: 4200000010 }]);
  // Cabled objects for the cabling routes: two devices with interfaces e1-e4 and a patch panel, one cable.
  const { body: site } = await t.post('/api/dcim/sites/', { name: 'Fuzz', slug: 'fuzz' });
  const { body: vendor } = await t.post('/api/dcim/manufacturers/', { name: 'Fuzz', slug: 'fuzz' });
  const { body: type } = await t.post('/api/dcim/device-types/', { manufacturer: vendor.id, model: 'Fuzz', slug: 'fuzz' });
  const { body: role } = await t.post('/api/dcim/device-roles/', { name: 'Fuzz', slug: 'fuzz' });
  const devices = (await t.post('/api/dcim/devices/', ['fuzz-a', 'fuzz-b'].map((name) => ({ name, site: site.id, device_type: type.id, role: role.id })))).body as { id: number }[];
  await t.post('/api/dcim/interfaces/', devices.flatMap((d) => ['e1', 'e2', 'e3', 'e4'].map((name) => ({ device: d.id, name, type: '1000base-t' }))));
  const { body: rear } = await t.post('/api/dcim/rear-ports/', { device: devices[0].id, name: 'R1', type: 'lc', positions: 2 });
  await t.post('/api/dcim/front-ports/', { device: devices[0].id, name: 'F1', type: 'lc', rear_port: rear.id });
  await t.post('/api/dcim/cables/', { a_terminations: [{ object_type: 'dcim.interface', object_id: 1 }], b_terminations: [{ object_type: 'dcim.interface', object_id: 5 }] });
  limited = await t.createUser('fuzz-limited');
  await t.post('/api/users/permissions/', {
    name: 'fuzz view', object_types: ['tenancy.tenant', 'tenancy.contact'], actions: ['view', 'change'], constraints: { name__istartswith: 'contact' }, users: [limited.id],
  });
  models = targets(t.server);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe(`fuzz (seed ${seed})`, () => {
  it('every endpoint of every plugin answers hostile requests without a 5xx, a hang or a leak', async () => {
    expect(models.length).toBeGreaterThan(15);
    await f.waves(3600, () => send(r.chance(0.93) ? modelRequest(r.pick(models)) : otherRequest()));
    f.verify();
  }, 600_000);

  it('hostile headers: Host, Accept, Authorization and content types', async () => {
    await f.waves(200, async () => {
      const path = `${r.pick(models).path}?${r.chance(0.5) ? 'limit=1' : ''}`;
      const host = r.pick(['a b', '', 'x:99999', '[::1]:80', 'evil.test', '127.0.0.1', `127.0.0.1:${new URL(t.base).port}`, 'h'.repeat(300), 'a..b', '-x-']);
      const res = await rawRequest(t.base, path, { Host: host, Authorization: `Token ${t.admin.token}`, Accept: r.pick(['application/json', 'text/html', '*/*', 'x/y', '']) });
      f.sent += 1;
      f.check({ method: 'GET', path, headers: { Host: host } }, { status: res.status, text: res.body });
      const auth = r.pick(['Token', 'Token ', `Token ${'z'.repeat(40)}`, 'Token a b', 'Bearer x', 'token\u00e9', `Token ${t.admin.token} extra`, 'Basic YTpi']);
      await send({ method: r.pick(['GET', 'POST', 'DELETE']), path, headers: { Authorization: auth } }, null);
      await send({ method: 'GET', path, headers: { Accept: r.pick(['text/html', 'application/json; version=9.9', 'application/xml']), Cookie: r.pick(['sessionid=x', 'sessionid=; csrftoken=', `sessionid=${'a'.repeat(4000)}`]) } });
    });
    f.verify();
  }, 300_000);

  it('refused writes change nothing', async () => {
    const writes = models.filter((m) => !m.model.decl.readOnly);
    for (let i = 0; i < 300; i++) {
      const target = r.pick(writes);
      const req = r.pick<Sent>([
        { method: 'POST', path: target.path, body: json(body(r, target)) },
        { method: 'PATCH', path: `${target.path}${r.pick(['1', '2', '3'])}/`, body: json(body(r, target)) },
        { method: 'DELETE', path: `${target.path}${r.pick(['1', '2', '3'])}/` },
        { method: 'DELETE', path: target.path, body: json([{ id: 1 }, { id: 2 }]) },
        { method: 'PUT', path: target.path, body: json([{ id: 1, ...body(r, target) }]) },
      ]);
      const who = r.chance(0.5) ? limited.token : null;
      const before = await f.fingerprint();
      const status = await send(req, who);
      // The limited user may change contacts named "contact…": those writes are not refused.
      if (status >= 200 && status < 300) continue;
      const after = await f.fingerprint();
      if (after !== before) f.fail(req, `a refused request (${status}, ${who ? 'limited user' : 'anonymous'}) changed the database`, { status, text: '' });
    }
    f.verify();
  }, 300_000);

  it('concurrent writes on the same objects never fail with a server error', async () => {
    // Straight into the table: the fuzz before may have defined custom fields that refuse plain creates.
    const db = t.server.db.knex;
    const rows = (await db('tenancy_tenant')
      .insert(Array.from({ length: 20 }, (_, i) => ({ name: `Race ${seed} ${i}`, slug: `race-${seed}-${i}`, created: db.fn.now(), last_updated: db.fn.now() })))
      .returning('id')) as { id: number }[];
    const ids = rows.map((row) => row.id);
    for (let round = 0; round < 6; round++) {
      await Promise.all(
        Array.from({ length: 12 }, () => {
          const some = r.some(ids, 10);
          return r.pick([
            () => send({ method: 'PATCH', path: '/api/tenancy/tenants/', body: json(some.map((id) => ({ id, description: `r${round}`, custom_fields: { count: r.int(5) }, tags: [{ slug: 'gold' }] }))) }),
            () => send({ method: 'DELETE', path: '/api/tenancy/tenants/', body: json(some.map((id) => ({ id }))) }),
            () => send({ method: 'POST', path: '/api/tenancy/tenants/', body: json([{ name: `Race ${round}`, slug: `race-x-${r.int(3)}`, custom_fields: { count: r.int(5) } }]) }),
            () => send({ method: 'POST', path: '/api/extras/journal-entries/', body: json(some.map((id) => ({ assigned_object_type: 'tenancy.tenant', assigned_object_id: id, comments: 'c' }))) }),
          ])();
        }),
      );
    }
    f.verify();
  }, 300_000);
});
