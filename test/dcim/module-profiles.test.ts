import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Body, type TestServer } from '../helpers/server.js';

let t: TestServer;
const API = '/api/dcim';
let vendor: Body;

beforeAll(async () => {
  t = await startServer();
  ({ body: vendor } = await t.post(`${API}/manufacturers/`, { name: 'Kingston', slug: 'kingston' }));
});
afterAll(async () => {
  await t?.close();
});

const MEMORY = {
  type: 'object',
  properties: {
    size: { type: 'integer', minimum: 1 },
    class: { type: 'string', enum: ['DDR4', 'DDR5'] },
    part: { type: 'string', pattern: '^KSM[0-9]+' },
  },
  required: ['size'],
};

describe('module type profiles', () => {
  it('hold a JSON Schema, refused when it is not one', async () => {
    expect((await t.post(`${API}/module-type-profiles/`, { name: 'Bad', schema: { type: 'wobbly' } })).body).toEqual({
      schema: [expect.stringMatching(/^Invalid JSON schema definition: /)],
    });
    expect((await t.post(`${API}/module-type-profiles/`, { name: 'List', schema: [1, 2] })).body).toEqual({ schema: ['Invalid JSON schema definition'] });
    expect((await t.post(`${API}/module-type-profiles/`, { name: 'Backref', schema: { type: 'string', pattern: '(a)\\1' } })).body).toEqual({
      schema: [expect.stringMatching(/^Invalid JSON schema definition: .*regular expression/)],
    });
    expect((await t.post(`${API}/module-type-profiles/`, { name: 'Unique', schema: { type: 'array', uniqueItems: true, items: { type: 'object' } } })).body).toEqual({
      schema: ['Invalid JSON schema definition: uniqueItems over objects or arrays needs maxItems'],
    });
    expect((await t.get(`${API}/module-type-profiles/`)).body.count).toBe(0);
    const made = await t.post(`${API}/module-type-profiles/`, { name: 'Memory', schema: MEMORY });
    expect(made.status).toBe(201);
    expect(made.body.schema).toEqual(MEMORY);
  });

  it('check module types\' attributes against their profile\'s schema; without one a type has none', async () => {
    const { body: profile } = await t.post(`${API}/module-type-profiles/`, { name: 'DIMM', schema: MEMORY });
    const { body: bare } = await t.post(`${API}/module-type-profiles/`, { name: 'Bare' });
    const made = await t.post(`${API}/module-types/`, { manufacturer: vendor.id, model: 'KSM32', profile: profile.id, attributes: { size: 32, class: 'DDR4', part: 'KSM32RD4' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ profile: { id: profile.id, name: 'DIMM' }, attributes: { size: 32, class: 'DDR4' } });

    expect((await t.post(`${API}/module-types/`, { manufacturer: vendor.id, model: 'X1', profile: profile.id, attributes: { class: 'DDR4' } })).body).toEqual({
      attributes: ["Invalid schema: must have required property 'size'"],
    });
    expect((await t.post(`${API}/module-types/`, { manufacturer: vendor.id, model: 'X2', profile: profile.id, attributes: { size: 'big' } })).body).toEqual({
      attributes: ['Invalid schema: size must be integer'],
    });
    expect((await t.post(`${API}/module-types/`, { manufacturer: vendor.id, model: 'X3', profile: profile.id, attributes: { size: 8, part: 'x'.repeat(50_000) } })).body).toEqual({
      attributes: ['Invalid schema: part must match pattern "^KSM[0-9]+"'],
    });
    expect((await t.post(`${API}/module-types/`, { manufacturer: vendor.id, model: 'X4', profile: profile.id })).body).toEqual({
      attributes: ['Invalid schema: must be object'],
    });

    // No profile, or one without a schema: the attributes are dropped, as NetBox does.
    const loose = await t.post(`${API}/module-types/`, { manufacturer: vendor.id, model: 'Loose', attributes: { anything: 1 } });
    expect(loose.body.attributes).toBeNull();
    const plain = await t.post(`${API}/module-types/`, { manufacturer: vendor.id, model: 'Plain', profile: bare.id, attributes: { anything: 1 } });
    expect(plain.body.attributes).toBeNull();
    const moved = await t.request('PATCH', `${API}/module-types/${made.body.id}/`, { body: { profile: null } });
    expect(moved.body.attributes).toBeNull();
    expect((await t.get(`${API}/module-types/?model=X1`)).body.count).toBe(0);
  });
});
