import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer, type TestUser } from '../helpers/server.js';

let t: TestServer;
const TEMPLATES = '/api/extras/config-templates/';
const ids: Record<string, number> = {};

async function make(path: string, body: Record<string, unknown>): Promise<number> {
  const res = await t.post(path, body);
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
  return res.body.id as number;
}

/** Renders `code` through the config template render endpoint, with `context`; returns the reply. */
async function render(code: string, context: Record<string, unknown> = {}, options: { token?: string; params?: Record<string, unknown> } = {}) {
  const id = await make(TEMPLATES, { name: `t${Object.keys(ids).length}-${Math.random()}`, template_code: code, environment_params: options.params ?? {} });
  return t.post(`${TEMPLATES}${id}/render/`, context, { token: options.token, headers: { accept: 'application/json' } });
}

/** The reads config template renders waited on the server for, as /metrics counts them (those not read ahead). */
async function waits(): Promise<number> {
  const text = await (await fetch(`${t.base}/metrics`)).text();
  return Number(/^patchbay_template_bridge_waits_total\{purpose="config_template"\} (\S+)$/m.exec(text)?.[1] ?? 0);
}

async function grant(user: TestUser, model: string, actions: string[], constraints?: unknown) {
  await make('/api/users/permissions/', { name: `${user.username} ${model} ${actions.join(' ')}`, object_types: [model], actions, constraints, users: [user.id] });
}

beforeAll(async () => {
  t = await startServer({ settings: { METRICS_ENABLED: true } });
  ids.region = await make('/api/dcim/regions/', { name: 'Europe', slug: 'europe' });
  ids.paris = await make('/api/dcim/sites/', { name: 'Paris', slug: 'paris', region: ids.region });
  ids.berlin = await make('/api/dcim/sites/', { name: 'Berlin', slug: 'berlin', status: 'planned' });
  ids.tokyo = await make('/api/dcim/sites/', { name: 'Tokyo', slug: 'tokyo' });
  ids.role = await make('/api/dcim/device-roles/', { name: 'Leaf', slug: 'leaf' });
  ids.vendor = await make('/api/dcim/manufacturers/', { name: 'Arista', slug: 'arista' });
  ids.platform = await make('/api/dcim/platforms/', { name: 'EOS', slug: 'eos' });
  ids.type = await make('/api/dcim/device-types/', { manufacturer: ids.vendor, model: '7050', slug: '7050' });
  ids.device = await make('/api/dcim/devices/', { name: 'fra1-leaf01', device_type: ids.type, role: ids.role, platform: ids.platform, site: ids.paris });
  for (const name of ['Ethernet1', 'Ethernet2', 'Management1']) {
    ids[name] = await make('/api/dcim/interfaces/', { device: ids.device, name, type: name.startsWith('Eth') ? '10gbase-x-sfpp' : '1000base-t', enabled: name !== 'Ethernet2' });
  }
  ids.address = await make('/api/ipam/ip-addresses/', { address: '10.20.0.11/32', assigned_object_type: 'dcim.interface', assigned_object_id: ids.Management1 });
  await t.request('PATCH', `/api/dcim/devices/${ids.device}/`, { body: { primary_ip4: ids.address } });
  await make('/api/extras/config-contexts/', { name: 'ntp', data: { ntp_servers: ['10.0.0.1', '10.0.0.2'], syslog: { host: '10.0.0.5' } } });
});
afterAll(async () => {
  await t?.close();
});

describe('config template rendering', () => {
  it('renders a template with the body as context, as JSON or as text', async () => {
    const id = await make(TEMPLATES, { name: 'banner', description: 'Banner', template_code: 'banner {{ text | upper }}\r\n{% for s in servers %}ntp {{ s }}\n{% endfor %}' });
    const json = await t.post(`${TEMPLATES}${id}/render/`, { text: 'hello', servers: ['a', 'b'] });
    expect(json.status).toBe(200);
    expect(json.body).toEqual({
      configtemplate: { id, url: expect.stringContaining(`${TEMPLATES}${id}/`), display: 'banner', name: 'banner', description: 'Banner' },
      content: 'banner HELLO\nntp a\nntp b\n',
    });
    const text = await t.post(`${TEMPLATES}${id}/render/`, { text: 'x', servers: [] }, { headers: { Accept: 'text/plain' } });
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(text.text).toBe('banner X\n');
    expect((await t.post(`${TEMPLATES}${id}/render/?format=txt`, { text: 'y' })).text).toBe('banner Y\n');
    expect((await t.post(`${TEMPLATES}${id}/render/`, {}, { headers: { Accept: 'text/html' } })).status).toBe(406);
    expect((await t.post(`${TEMPLATES}${id}/render/`, [1, 2])).status).toBe(400);
    expect((await t.post(`${TEMPLATES}99999/render/`, {})).status).toBe(404);
  });

  it('applies the environment parameters', async () => {
    const code = '{% for x in xs %}\n  {{ x }}\n{% endfor %}\n';
    expect((await render(code, { xs: [1, 2] })).body.content).toBe('\n  1\n\n  2\n');
    expect((await render(code, { xs: [1, 2] }, { params: { trim_blocks: true, lstrip_blocks: true } })).body.content).toBe('  1\n  2\n');
    const bad = await render('x', {}, { params: { no_such_option: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain('no_such_option');
  });

  it('refuses template errors with a 400 naming the message and the line', async () => {
    const syntax = await render('line one\n{% if %}\n');
    expect(syntax.status).toBe(400);
    expect(syntax.body.detail).toMatch(/^An error occurred while rendering the template \(line 2\): /);
    const runtime = await render('a\nb\n{{ 1 / 0 }}');
    expect(runtime.status).toBe(400);
    expect(runtime.body.detail).toContain('(line 3)');
    expect(runtime.body.detail).toContain('division by zero');
    const missing = await render("{% include 'nowhere' %}");
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toContain('nowhere');
  });

  it('includes and imports other config templates by name', async () => {
    await make(TEMPLATES, { name: 'macros', template_code: '{% macro iface(name) %}interface {{ name }}{% endmacro %}' });
    await make(TEMPLATES, { name: 'header', template_code: '! managed by patchbay for {{ who }}' });
    const res = await render("{% include 'header' %}\n{% import 'macros' as m %}{{ m.iface('Ethernet1') }}", { who: 'noc' });
    expect(res.body.content).toBe('! managed by patchbay for noc\ninterface Ethernet1');
  });

  it('renders a device with its template, by device, then role, then platform, with its config context', async () => {
    const url = `/api/dcim/devices/${ids.device}/render-config/`;
    expect((await t.post(url, {})).body).toEqual({ error: 'No config template found for this device.' });
    const onPlatform = await make(TEMPLATES, { name: 'platform', template_code: 'platform {{ device.name }}' });
    const onRole = await make(TEMPLATES, { name: 'role', template_code: 'role {{ device.name }}' });
    const own = await make(TEMPLATES, {
      name: 'eos-leaf',
      template_code: [
        'hostname {{ device.name }}',
        '{% for server in ntp_servers %}ntp server {{ server }}\n{% endfor %}banner motd {{ extra_banner }}',
        'site {{ device.site.name }} in {{ device.site.region.name }}, {{ device.status }}',
        '{% for i in device.interfaces.all() %}interface {{ i.name }}{% if not i.enabled %} shutdown{% endif %}\n{% endfor %}',
        'router-id {{ device.primary_ip4.address }} {{ device.interfaces.count() }} {{ device.interfaces.filter(enabled=False).count() }}',
      ].join('\n'),
    });
    await t.request('PATCH', `/api/dcim/platforms/${ids.platform}/`, { body: { config_template: onPlatform } });
    expect((await t.post(url, {})).body.content).toBe('platform fra1-leaf01');
    await t.request('PATCH', `/api/dcim/device-roles/${ids.role}/`, { body: { config_template: onRole } });
    expect((await t.post(url, {})).body.content).toBe('role fra1-leaf01');
    await t.request('PATCH', `/api/dcim/devices/${ids.device}/`, { body: { config_template: own } });
    const res = await t.post(url, { extra_banner: 'maintenance' });
    expect(res.status).toBe(200);
    expect(res.body.configtemplate).toMatchObject({ id: own, name: 'eos-leaf' });
    expect(res.body.content).toBe(
      'hostname fra1-leaf01\nntp server 10.0.0.1\nntp server 10.0.0.2\nbanner motd maintenance\n' +
        'site Paris in Europe, active\n' +
        'interface Ethernet1\ninterface Ethernet2 shutdown\ninterface Management1\n\n' +
        'router-id 10.20.0.11/32 3 1',
    );
    const text = await t.post(url, { extra_banner: 'x' }, { headers: { Accept: 'text/plain' } });
    expect(text.text).toContain('banner motd x');
    expect((await t.get(`/api/dcim/devices/${ids.device}/`)).body.config_template).toMatchObject({ id: own, name: 'eos-leaf' });
  });

  it('reads the device once and makes one statement per object the template reaches', async () => {
    const url = `/api/dcim/devices/${ids.device}/render-config/`;
    const own = await make(TEMPLATES, { name: 'budget', template_code: '{{ device.name }} {{ device.site.name }}{% for i in device.interfaces.all() %} {{ i.name }}{% endfor %}' });
    await t.request('PATCH', `/api/dcim/devices/${ids.device}/`, { body: { config_template: own } });
    await t.post(url, {});
    let content = '';
    const statements = await t.statements(async () => {
      content = (await t.post(url, {})).body.content as string;
    });
    expect(content).toBe('fra1-leaf01 Paris Ethernet1 Ethernet2 Management1');
    const reads = statements.map((s) => s.sql).filter((sql) => !/users_token|users_user/.test(sql));
    expect(reads.filter((sql) => sql.includes('from "dcim_device" as "t"'))).toHaveLength(1);
    // The device with its config contexts, its template; then the site and the interfaces the template reaches, in
    // one statement.
    expect(reads).toHaveLength(3);
    // A device's interfaces are ordered by name alone: their device is the same for all.
    expect(reads.find((sql) => sql.includes('from "dcim_interface"'))).not.toContain('join "dcim_device"');
    // The role's template ('role {{ device.name }}') is found by the same one statement.
    await t.request('PATCH', `/api/dcim/devices/${ids.device}/`, { body: { config_template: null } });
    const byRole = await t.statements(async () => {
      content = (await t.post(url, {})).body.content as string;
    });
    expect(content).toBe('role fra1-leaf01');
    expect(byRole.filter((s) => !/users_token|users_user/.test(s.sql))).toHaveLength(2);
  });

  it('reads ahead, for the next device, what the template read of the one before, as the requesting user may read', async () => {
    const other = await make('/api/dcim/devices/', { name: 'ber1-leaf01', device_type: ids.type, role: ids.role, site: ids.berlin });
    await make('/api/dcim/interfaces/', { device: other, name: 'Ethernet9', type: '10gbase-x-sfpp', enabled: false });
    const template = await make(TEMPLATES, {
      name: 'ahead',
      template_code: '{{ device.name }} {{ device.site.name }} {{ device.site.region.name if device.site.region else "-" }}:'
        + '{% for i in device.interfaces.all() %} {{ i.name }}{% endfor %} {{ device.interfaces.filter(enabled=False).count() }}',
    });
    for (const id of [ids.device, other]) await t.request('PATCH', `/api/dcim/devices/${id}/`, { body: { config_template: template } });
    const rendered = async (id: number, token?: string) => {
      const res = await t.post(`/api/dcim/devices/${id}/render-config/`, {}, { token });
      expect(res.status, res.text).toBe(200);
      return res.body.content as string;
    };
    /** The device's configuration, and how many reads its render waited on the server for. */
    const waited = async (id: number, token?: string): Promise<[string, number]> => {
      const before = await waits();
      const content = await rendered(id, token);
      return [content, (await waits()) - before];
    };
    // Each render finds what the previous one read, of its own device: its site, its interfaces and their count.
    expect((await waited(ids.device))[0]).toBe('fra1-leaf01 Paris Europe: Ethernet1 Ethernet2 Management1 1');
    expect(await waited(other)).toEqual(['ber1-leaf01 Berlin -: Ethernet9 1', 0]);
    // Berlin has no region: that read was not made, and is the one this render waits for.
    expect(await waited(ids.device)).toEqual(['fra1-leaf01 Paris Europe: Ethernet1 Ethernet2 Management1 1', 1]);
    // The site's region is read from the device's id with the site and the interfaces: one statement, not one a step.
    const ahead = (await t.statements(async () => expect(await waited(ids.device)).toEqual(['fra1-leaf01 Paris Europe: Ethernet1 Ethernet2 Management1 1', 0])))
      .map((s) => s.sql).filter((sql) => !/users_token|users_user/.test(sql));
    expect(ahead.filter((sql) => sql.includes('from "dcim_region"'))).toEqual([expect.stringMatching(/from "dcim_site".*from "dcim_interface"/s)]);
    // The device with its contexts, the template, that statement, and the count of the disabled interfaces.
    expect(ahead).toHaveLength(4);
    // Read ahead for another user, with their permissions: one interface and no region in their view.
    const erin = await t.createUser('erin');
    await grant(erin, 'dcim.device', ['add', 'view']);
    await grant(erin, 'extras.configtemplate', ['view']);
    await grant(erin, 'dcim.site', ['view']);
    await grant(erin, 'dcim.interface', ['view'], { name: 'Ethernet2' });
    expect(await waited(ids.device, erin.token)).toEqual(['fra1-leaf01 Paris -: Ethernet2 1', 0]);
    expect(await rendered(ids.device)).toBe('fra1-leaf01 Paris Europe: Ethernet1 Ethernet2 Management1 1');
    for (const id of [ids.device, other]) await t.request('PATCH', `/api/dcim/devices/${id}/`, { body: { config_template: null } });
    await t.request('DELETE', `/api/dcim/devices/${other}/`);
  });

  it('reads ahead together what one render read, each read failing or answering as it would alone', async () => {
    const template = await make(TEMPLATES, {
      name: 'refused ahead',
      template_code: '{{ device.site.name }}:\n{% for i in device.interfaces.all() %}{{ i.name }} {% endfor %}\n{% for i in device.interfaces.filter(mtu__lt="high") %}{{ i.name }}{% endfor %}',
    });
    await t.request('PATCH', `/api/dcim/devices/${ids.device}/`, { body: { config_template: template } });
    const url = `/api/dcim/devices/${ids.device}/render-config/`;
    const first = await t.post(url, {});
    expect(first.status).toBe(400);
    // The refusal is the third line's: the first two read.
    expect(first.body.detail).toMatch(/^An error occurred while rendering the template \(line 3\)/);
    // The site, the interfaces and the refused interfaces are read ahead in one round: the refusal is the same, and is
    // that read's.
    const before = await waits();
    const again = await t.post(url, {});
    expect([again.status, again.body]).toEqual([400, first.body]);
    expect((await waits()) - before).toBe(0);
    await t.request('PATCH', `/api/dcim/devices/${ids.device}/`, { body: { config_template: null } });
  });

  it('reads only the keys the template read before; a key read for the first time is read whole, for the same text', async () => {
    const plain = await make('/api/dcim/devices/', { name: 'lean-a', device_type: ids.type, role: ids.role, site: ids.tokyo });
    await make('/api/dcim/interfaces/', { device: plain, name: 'eth1', type: '1000base-t' });
    const template = await make(TEMPLATES, {
      name: 'lean',
      // The type is read only of a disabled interface, and `nothing` is no key of an interface at all.
      template_code: '{% for i in device.interfaces.all() %}{{ i.name }}{% if not i.enabled %}={{ i.type }}{% endif %}{{ i.nothing }};{% endfor %}',
    });
    for (const id of [ids.device, plain]) await t.request('PATCH', `/api/dcim/devices/${id}/`, { body: { config_template: template } });
    const rendered = async (id: number): Promise<[string, number, string[]]> => {
      const before = await waits();
      let content = '';
      const statements = await t.statements(async () => {
        const res = await t.post(`/api/dcim/devices/${id}/render-config/`, {});
        expect(res.status, res.text).toBe(200);
        content = res.body.content as string;
      });
      return [content, (await waits()) - before, statements.map((s) => s.sql).filter((sql) => sql.includes('from "dcim_interface"'))];
    };
    // The first render reads whole rows, and learns the keys: name, enabled, nothing.
    expect((await rendered(plain))[0]).toBe('eth1;');
    // Read ahead with those keys' columns only; the disabled interface's type is read whole when asked: one wait.
    const [content, waited, reads] = await rendered(ids.device);
    expect([content, waited]).toEqual(['Ethernet1;Ethernet2=10gbase-x-sfpp;Management1;', 1]);
    expect(reads[0]).toMatch(/select "t"."id", "t"."name", "t"."enabled"/);
    expect(reads[0]).not.toContain('"t".*');
    // Now the type is one of the keys: nothing to wait for, the same text.
    expect((await rendered(ids.device)).slice(0, 2)).toEqual(['Ethernet1;Ethernet2=10gbase-x-sfpp;Management1;', 0]);
    expect((await rendered(plain)).slice(0, 2)).toEqual(['eth1;', 0]);
    for (const id of [ids.device, plain]) await t.request('PATCH', `/api/dcim/devices/${id}/`, { body: { config_template: null } });
    await t.request('DELETE', `/api/dcim/devices/${plain}/`);
  });

  it('renders a virtual machine as `virtualmachine`', async () => {
    const type = await make('/api/virtualization/cluster-types/', { name: 'KVM', slug: 'kvm' });
    const cluster = await make('/api/virtualization/clusters/', { name: 'c1', type });
    const template = await make(TEMPLATES, { name: 'vm', template_code: '{{ virtualmachine.name }} {{ virtualmachine.cluster.name }} {{ ntp_servers | join(",") }}' });
    const vm = await make('/api/virtualization/virtual-machines/', { name: 'vm1', cluster, config_template: template });
    const res = await t.post(`/api/virtualization/virtual-machines/${vm}/render-config/`, {});
    expect(res.body.content).toBe('vm1 c1 10.0.0.1,10.0.0.2');
    const none = await make('/api/virtualization/virtual-machines/', { name: 'vm2', cluster });
    expect((await t.post(`/api/virtualization/virtual-machines/${none}/render-config/`, {})).body).toEqual({ error: 'No config template found for this virtualmachine.' });
  });

  it('reaches models by app, through the filters, as the requesting user may view them', async () => {
    const code = [
      '{{ dcim.Site.objects.count() }} {{ dcim.Site.objects.filter(status="active").count() }}',
      '{% for s in dcim.Site.objects.all() %}{{ s.name }} {% endfor %}',
      '{{ dcim.Site.objects.get(slug="paris").region.name }} {{ dcim.Site.objects.filter(region_id=' + ids.region + ') | length }}',
    ].join('\n');
    expect((await render(code)).body.content).toBe('3 2\nBerlin Paris Tokyo \nEurope 1');
    const missing = await render('{{ dcim.Site.objects.get(name="Nowhere") }}');
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toContain('Site matching query does not exist.');
    const badFilter = await render('{{ dcim.Site.objects.filter(status="nope").count() }}');
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.detail).toContain('status');
    // Text PostgreSQL cannot take is refused before it reaches SQL, as in a query string.
    const nul = await render('{{ dcim.Site.objects.filter(name="a\\x00b").count() }}');
    expect(nul.status).toBe(400);
    expect(nul.body.detail).toContain('Null characters are not allowed.');

    const alice = await t.createUser('alice');
    await grant(alice, 'extras.configtemplate', ['add', 'view']);
    await grant(alice, 'dcim.site', ['view'], { status: 'active' });
    const seen = await render('{{ dcim.Site.objects.count() }} {% for s in dcim.Site.objects.all() %}{{ s.slug }} {% endfor %}{{ dcim.Region.objects.count() }}', {}, { token: alice.token });
    expect(seen.body.content).toBe('2 paris tokyo 0');
    const device = await render(`{{ dcim.Device.objects.count() }}`, {}, { token: alice.token });
    expect(device.body.content).toBe('0');
  });

  it('needs the add permission and a write-enabled token', async () => {
    const id = await make(TEMPLATES, { name: 'perm', template_code: 'x' });
    const bob = await t.createUser('bob');
    await grant(bob, 'extras.configtemplate', ['view']);
    expect((await t.post(`${TEMPLATES}${id}/render/`, {}, { token: bob.token })).status).toBe(403);
    await grant(bob, 'dcim.device', ['view']);
    expect((await t.post(`/api/dcim/devices/${ids.device}/render-config/`, {}, { token: bob.token })).status).toBe(403);
    const reader = await t.createUser('reader', { superuser: true, tokenFields: { write_enabled: false } });
    expect((await t.post(`${TEMPLATES}${id}/render/`, {}, { token: reader.token })).status).toBe(403);
  });
});

describe('rendering needs the view permission on the template', () => {
  it('render-config of a template the user may not view answers as if there were none', async () => {
    const type = await make('/api/dcim/device-types/', { manufacturer: ids.vendor, model: 'secret-type', slug: 'secret-type' });
    const hidden = await make(TEMPLATES, { name: 'hidden', description: 'private', template_code: 'enable secret {{ 40 + 2 }}' });
    const shown = await make(TEMPLATES, { name: 'shown', description: 'public', template_code: 'hostname {{ device.name }}' });
    const device = await make('/api/dcim/devices/', { name: 'perm-dev', device_type: type, role: ids.role, site: ids.paris, config_template: hidden });
    const url = `/api/dcim/devices/${device}/render-config/`;
    const carol = await t.createUser('carol');
    await grant(carol, 'dcim.device', ['add', 'view']);
    const none = { error: 'No config template found for this device.' };
    // No view permission on config templates at all: the same 400 as a device without one.
    const blind = await t.post(url, {}, { token: carol.token });
    expect(blind.status).toBe(400);
    expect(blind.body).toEqual(none);
    // Viewing only public templates: the device's own (private) one is not there, and not replaced by another.
    await grant(carol, 'extras.configtemplate', ['view'], { description: 'public' });
    expect((await t.post(url, {}, { token: carol.token })).body).toEqual(none);
    await t.request('PATCH', `/api/dcim/devices/${device}/`, { body: { config_template: shown } });
    const allowed = await t.post(url, {}, { token: carol.token });
    expect(allowed.status).toBe(200);
    expect(allowed.body).toMatchObject({ configtemplate: { id: shown }, content: 'hostname perm-dev' });
    // The admin renders either, as before.
    await t.request('PATCH', `/api/dcim/devices/${device}/`, { body: { config_template: hidden } });
    expect((await t.post(url, {})).body.content).toBe('enable secret 42');
  });

  it('?export= of a template the user may not view is the 404 of an unknown name', async () => {
    await make('/api/extras/export-templates/', { name: 'private-sites', description: 'private', object_types: ['dcim.site'], template_code: '{{ queryset.count() }} private' });
    await make('/api/extras/export-templates/', { name: 'public-sites', description: 'public', object_types: ['dcim.site'], template_code: '{{ queryset.count() }} public' });
    const dave = await t.createUser('dave');
    await grant(dave, 'dcim.site', ['view']);
    const exported = (name: string) => t.get(`/api/dcim/sites/?export=${name}`, { token: dave.token });
    expect((await exported('public-sites')).status).toBe(404);
    await grant(dave, 'extras.exporttemplate', ['view'], { description: 'public' });
    const refused = await exported('private-sites');
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ detail: 'Not found.' });
    const shown = await exported('public-sites');
    expect(shown.status).toBe(200);
    expect(shown.text).toBe('3 public');
    // Of two templates with one name, the first the user may view.
    await make('/api/extras/export-templates/', { name: 'private-sites', description: 'public', object_types: ['dcim.site'], template_code: 'second' });
    expect((await exported('private-sites')).text).toBe('second');
    expect((await t.get('/api/dcim/sites/?export=private-sites')).text).toBe('3 private');
  });
});

describe('template models', () => {
  it('refuse bad input, naming the field', async () => {
    const message = 'JSON data must be in object form. Example: {"foo": 123}';
    expect((await t.post(TEMPLATES, { name: 'list params', template_code: 'x', environment_params: ['trim_blocks'] })).body).toEqual({ environment_params: [message] });
    expect((await t.post(TEMPLATES, { name: 'no code' })).body).toEqual({ template_code: ['This field is required.'] });
    const exports = '/api/extras/export-templates/';
    expect((await t.post(exports, { name: 'none', object_types: [], template_code: 'x' })).body).toEqual({ object_types: ['This list may not be empty.'] });
    expect((await t.post(exports, { name: 'bad', object_types: ['nope.nope'], template_code: 'x' })).status).toBe(400);
    expect((await t.get(`${exports}?object_type=dcim.site`)).status).toBe(200);
  });

  it('refuse MIME types and file names that cannot be headers, naming the field, and write nothing', async () => {
    const exports = '/api/extras/export-templates/';
    const base = { object_types: ['dcim.site'], template_code: 'x' };
    const before = (await t.get(`${exports}?limit=1`)).body.count;
    const refused: [Record<string, string>, Record<string, string[]>][] = [
      [{ mime_type: 'text/html\r\nX-Injected: 1' }, { mime_type: ['MIME types may not contain line breaks or other control characters.'] }],
      [{ mime_type: 'csv' }, { mime_type: ['Enter a MIME type as type/subtype, with optional parameters (text/csv; charset=utf-8).'] }],
      [{ mime_type: 'text/csv; charset' }, { mime_type: ['Enter a MIME type as type/subtype, with optional parameters (text/csv; charset=utf-8).'] }],
      [{ mime_type: 'text /csv' }, { mime_type: ['Enter a MIME type as type/subtype, with optional parameters (text/csv; charset=utf-8).'] }],
      [{ file_name: 'a\r\nSet-Cookie: x' }, { file_name: ['File names may not contain line breaks or other control characters.'] }],
      [{ file_extension: 'x\ny', file_name: 'tab\there' }, {
        file_name: ['File names may not contain line breaks or other control characters.'],
        file_extension: ['File names may not contain line breaks or other control characters.'],
      }],
    ];
    for (const [fields, errors] of refused) {
      const res = await t.post(exports, { name: `bad ${Math.random()}`, ...base, ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body, JSON.stringify(fields)).toEqual(errors);
      // Config templates declare the same fields.
      expect((await t.post(TEMPLATES, { name: `bad ${Math.random()}`, template_code: 'x', ...fields })).status).toBe(400);
    }
    expect((await t.get(`${exports}?limit=1`)).body.count).toBe(before);
    for (const mime_type of ['text/csv', 'text/csv; charset=utf-8', 'text/plain;charset="utf-8"', 'application/vnd.ms-excel', 'application/x-yaml ; q=1;', '']) {
      const res = await t.post(exports, { name: `ok ${Math.random()}`, ...base, mime_type, file_name: 'sites export (1)', file_extension: 'csv' });
      expect(res.status, `${mime_type}: ${res.text}`).toBe(201);
    }
    const id = (await t.post(exports, { name: 'to patch', ...base, mime_type: 'text/csv' })).body.id;
    expect((await t.request('PATCH', `${exports}${id}/`, { body: { mime_type: 'text/csv\nX: y' } })).status).toBe(400);
    expect((await t.get(`${exports}${id}/`)).body.mime_type).toBe('text/csv');
  });
});

describe('export templates', () => {
  it('render a filtered list with the template, served with its MIME type and file name', async () => {
    await make('/api/extras/export-templates/', {
      name: 'sites-csv', object_types: ['dcim.site'], mime_type: 'text/csv', file_name: 'sites', file_extension: 'csv',
      template_code: 'name,status\n{% for s in queryset %}{{ s.name }},{{ s.status }}\n{% endfor %}',
    });
    const all = await t.get('/api/dcim/sites/?export=sites-csv');
    expect(all.status).toBe(200);
    expect(all.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(all.headers.get('content-disposition')).toBe('attachment; filename="sites.csv"');
    expect(all.text).toBe('name,status\nBerlin,planned\nParis,active\nTokyo,active\n');
    expect((await t.get('/api/dcim/sites/?export=sites-csv&status=active&limit=1')).text).toBe('name,status\nParis,active\nTokyo,active\n');
    expect((await t.get('/api/dcim/sites/?export=sites-csv&status=nope')).status).toBe(400);
    expect((await t.get('/api/dcim/sites/?export=nope')).status).toBe(404);
    expect((await t.get('/api/dcim/devices/?export=sites-csv')).status).toBe(404);

    await make('/api/extras/export-templates/', { name: 'inline', object_types: ['dcim.site'], as_attachment: false, template_code: '{{ queryset.count() }}' });
    const inline = await t.get('/api/dcim/sites/?export=inline');
    expect(inline.headers.get('content-disposition')).toBeNull();
    expect(inline.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(inline.text).toBe('3');
    expect((await t.post('/api/extras/export-templates/', { name: 'Table', object_types: ['dcim.site'], template_code: 'x' })).body).toEqual({
      name: ['"Table" is a reserved name. Please choose a different name.'],
    });
  });
});
