import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_PLUGIN, startServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const TENANTS = '/api/tenancy/tenants/';
const CF = '/api/extras/custom-fields/';
let role: number;

const define = async (body: object) => {
  const res = await t.post(CF, { object_types: ['tenancy.tenant'], ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};
const tenant = (name: string, custom_fields: object) => t.post(TENANTS, { name, slug: name.toLowerCase(), custom_fields });
const names = async (query: string) => {
  const res = await t.get(`${TENANTS}?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results.map((r: { name: string }) => r.name).sort();
};

beforeAll(async () => {
  t = await startServer({ plugins: [EXAMPLE_PLUGIN] });
  const sets = await t.post('/api/extras/custom-field-choice-sets/', { name: 'Tiers', extra_choices: [['gold', 'Gold'], ['silver', 'Silver'], ['bronze', 'Bronze']] });
  role = (await t.post('/api/tenancy/contact-roles/', { name: 'Owner', slug: 'owner' })).body.id;
  await define({ name: 'code', type: 'text', validation_regex: '^[A-Z]{3}\\d$', filter_logic: 'exact', unique: true });
  await define({ name: 'notes', type: 'longtext' });
  await define({ name: 'seats', type: 'integer', validation_minimum: 1, validation_maximum: 500, default: 10 });
  await define({ name: 'ratio', type: 'decimal' });
  await define({ name: 'vip', type: 'boolean' });
  await define({ name: 'since', type: 'date' });
  await define({ name: 'audited', type: 'datetime' });
  await define({ name: 'portal', type: 'url' });
  await define({ name: 'extra', type: 'json' });
  await define({ name: 'tier', type: 'select', choice_set: sets.body.id });
  await define({ name: 'regions', type: 'multiselect', choice_set: sets.body.id });
  await define({ name: 'owner_role', type: 'object', related_object_type: 'tenancy.contactrole' });
  await define({ name: 'roles', type: 'multiobject', related_object_type: 'tenancy.contactrole' });
  await tenant('Acme', {
    code: 'ACM1', notes: 'Long text here', seats: 100, ratio: 0.75, vip: true, since: '2024-06-01', audited: '2025-01-02T03:04:05Z',
    portal: 'https://acme.example', extra: { a: [1, 2] }, tier: 'gold', regions: ['gold', 'silver'], owner_role: role, roles: [role],
  });
  await tenant('Beta', { code: 'BET2', seats: 5, vip: false, since: '2020-01-01', tier: 'silver', regions: ['bronze'] });
  await tenant('Gamma', {});
});
afterAll(async () => {
  await t?.close();
});

describe('custom fields', () => {
  it('render every field of the model, objects nested, and apply defaults on create', async () => {
    const acme = (await t.get(`${TENANTS}?name=Acme`)).body.results[0];
    expect(acme.custom_fields).toEqual({
      seats: 100, code: 'ACM1', notes: 'Long text here', ratio: 0.75, vip: true, since: '2024-06-01', audited: '2025-01-02T03:04:05Z',
      portal: 'https://acme.example', extra: { a: [1, 2] }, tier: 'gold', regions: ['gold', 'silver'],
      owner_role: expect.objectContaining({ id: role, name: 'Owner' }), roles: [expect.objectContaining({ id: role })],
    });
    const gamma = (await t.get(`${TENANTS}?name=Gamma`)).body.results[0];
    expect(gamma.custom_fields).toMatchObject({ seats: 10, code: null, tier: null, roles: null });
    expect(Object.keys(gamma.custom_fields)).toHaveLength(13);
    // Other models carry no fields they were not given.
    expect((await t.get('/api/tenancy/contact-roles/')).body.results[0].custom_fields).toEqual({});
  });

  it('merge written keys into stored data and drop unknown ones', async () => {
    const beta = (await t.get(`${TENANTS}?name=Beta`)).body.results[0];
    const res = await t.request('PATCH', `${TENANTS}${beta.id}/`, { body: { custom_fields: { notes: 'added', unknown: 1 } } });
    expect(res.body.custom_fields).toMatchObject({ notes: 'added', code: 'BET2', seats: 5 });
    expect(res.body.custom_fields).not.toHaveProperty('unknown');
  });

  it('validate each type, naming the field', async () => {
    const cases: [object, string][] = [
      [{ code: 'bad' }, "Invalid value for custom field 'code': Values must match this regex: '^[A-Z]{3}\\d$'"],
      [{ seats: 0 }, "Invalid value for custom field 'seats': Value must be at least 1"],
      [{ seats: 501 }, "Invalid value for custom field 'seats': Value must not exceed 500"],
      [{ seats: 'many' }, "Invalid value for custom field 'seats': Value must be an integer."],
      [{ ratio: 'x' }, "Invalid value for custom field 'ratio': Value must be a decimal."],
      [{ vip: 'yes' }, "Invalid value for custom field 'vip': Value must be true or false."],
      [{ since: '2024-13-01' }, "Invalid value for custom field 'since': Date values must be in ISO 8601 format (YYYY-MM-DD)."],
      [{ audited: 'noon' }, "Invalid value for custom field 'audited': Date and time values must be in ISO 8601 format (YYYY-MM-DD HH:MM:SS)."],
      [{ portal: 'not a url' }, "Invalid value for custom field 'portal': Enter a valid URL."],
      [{ tier: 'platinum' }, "Invalid value for custom field 'tier': Invalid choice (platinum). Available choices are: gold, silver, bronze"],
      [{ regions: ['gold', 'tin'] }, "Invalid value for custom field 'regions': Invalid choice(s) (tin). Available choices are: gold, silver, bronze"],
      [{ owner_role: 9999 }, "Invalid value for custom field 'owner_role': Unknown related object(s): 9999"],
      [{ roles: 3 }, "Invalid value for custom field 'roles': Value must be a list of objects."],
      [{ code: 'ACM1' }, "Custom field 'code' must have a unique value."],
    ];
    for (const [values, message] of cases) {
      const res = await tenant(`Bad${Math.random().toString(36).slice(2, 7)}`, values);
      expect(res.status, message).toBe(400);
      expect(res.body, message).toEqual({ __all__: [message] });
    }
    expect((await t.post(TENANTS, { name: 'X', slug: 'x', custom_fields: [1] })).body).toEqual({
      custom_fields: ['Invalid data format. Custom field data must be passed as a dictionary mapping field names to their values.'],
    });
    await define({ name: 'contract', type: 'text', required: true });
    expect((await tenant('Needs', {})).body).toEqual({ __all__: ["Missing required custom field 'contract'."] });
    await t.request('DELETE', `${CF}${(await t.get(`${CF}?name=contract`)).body.results[0].id}/`);
  });

  it('judge unique values across the objects of one write by their new values', async () => {
    await t.post('/api/tenancy/tenant-groups/', { name: 'Unique group', slug: 'ugroup' });
    // The first item waits on its group lookup, the second does not: both are judged together all the same.
    const twice = await t.post(TENANTS, [
      { name: 'U1', slug: 'u1', group: { slug: 'ugroup' }, custom_fields: { code: 'UNQ1' } },
      { name: 'U2', slug: 'u2', custom_fields: { code: 'UNQ1' } },
    ]);
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual([{}, { __all__: ["Custom field 'code' must have a unique value."] }]);
    const { body: made } = await t.post(TENANTS, [
      { name: 'U3', slug: 'u3', custom_fields: { code: 'UNQ3' } },
      { name: 'U4', slug: 'u4', custom_fields: { code: 'UNQ4' } },
    ]);
    // Two objects trading their values is fine: no other object holds either.
    const swap = await t.request('PATCH', TENANTS, { body: [{ id: made[0].id, custom_fields: { code: 'UNQ4' } }, { id: made[1].id, custom_fields: { code: 'UNQ3' } }] });
    expect(swap.status, JSON.stringify(swap.body)).toBe(200);
    expect(swap.body.map((r: { custom_fields: { code: string } }) => r.custom_fields.code)).toEqual(['UNQ4', 'UNQ3']);
    await t.request('DELETE', TENANTS, { body: made.map((r: { id: number }) => ({ id: r.id })) });
  });

  it('filter with cf_<name> and the lookups of each type', async () => {
    expect(await names('cf_code=ACM1')).toEqual(['Acme']);
    expect(await names('cf_code__isw=be')).toEqual(['Beta']);
    expect(await names('cf_notes=long')).toEqual(['Acme']);
    expect(await names('cf_seats__gte=10')).toEqual(['Acme', 'Gamma']);
    expect(await names('cf_seats__lt=10')).toEqual(['Beta']);
    expect(await names('cf_seats=5&cf_seats=100')).toEqual(['Acme', 'Beta']);
    expect(await names('cf_vip=true')).toEqual(['Acme']);
    expect(await names('cf_since__lt=2023-01-01')).toEqual(['Beta']);
    expect(await names('cf_audited__gte=2025-01-01T00:00:00Z')).toEqual(['Acme']);
    expect(await names('cf_tier=silver')).toEqual(['Beta']);
    expect(await names('cf_regions=silver')).toEqual(['Acme']);
    expect(await names(`cf_owner_role=${role}`)).toEqual(['Acme']);
    expect(await names(`cf_roles=${role}`)).toEqual(['Acme']);
    expect(await names('cf_tier__empty=true')).toEqual(['Gamma']);
    expect(await names('cf_tier__n=gold')).toEqual(['Beta', 'Gamma']);
    expect((await t.get(`${TENANTS}?cf_seats=many`)).body).toEqual({ cf_seats: ['Enter a whole number.'] });
    expect(await names('cf_nothing=1')).toEqual(['Acme', 'Beta', 'Gamma']);
  });

  it('ignore filters of fields whose filter logic is disabled', async () => {
    await define({ name: 'secret', type: 'text', filter_logic: 'disabled' });
    const beta = (await t.get(`${TENANTS}?name=Beta`)).body.results[0];
    await t.request('PATCH', `${TENANTS}${beta.id}/`, { body: { custom_fields: { secret: 'x' } } });
    expect(await names('cf_secret=x')).toEqual(['Acme', 'Beta', 'Gamma']);
  });

  it('apply to the example plugin’s model, which only declares the feature', async () => {
    await t.post(CF, { object_types: ['maintenance.window'], name: 'crew', type: 'integer' });
    const made = await t.post('/api/plugins/maintenance/windows/', { name: 'Crewed', starts: '2031-01-01T00:00:00Z', custom_fields: { crew: 4 } });
    expect(made.body.custom_fields).toEqual({ crew: 4 });
    expect((await t.get('/api/plugins/maintenance/windows/?cf_crew__gte=3')).body.results.map((w: { name: string }) => w.name)).toEqual(['Crewed']);
    expect((await t.post('/api/plugins/maintenance/windows/', { name: 'Bad crew', starts: '2031-01-01T00:00:00Z', custom_fields: { crew: 'four' } })).body).toEqual({
      __all__: ["Invalid value for custom field 'crew': Value must be an integer."],
    });
  });

  it('refuse a selection field without choices and disappear with their object', async () => {
    expect((await t.post(CF, { object_types: ['tenancy.tenant'], name: 'pick', type: 'select' })).body).toEqual({
      choice_set: ['Selection fields must specify a set of choices.'],
    });
    expect((await t.post(CF, { object_types: ['tenancy.contactrole'], name: 'Bad Name' })).body).toEqual({
      name: ['Only alphanumeric characters and underscores are allowed.'],
    });
    const gamma = (await t.get(`${TENANTS}?name=Gamma`)).body.results[0];
    await t.request('DELETE', `${TENANTS}${gamma.id}/`);
    const left = await t.server.db.knex('extras_customfielddata').where('object_id', gamma.id).count({ n: '*' });
    expect(left).toEqual([{ n: '0' }]);
  });
});
