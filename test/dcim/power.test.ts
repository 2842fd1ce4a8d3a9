import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Body, type TestServer } from '../helpers/server.js';

let t: TestServer;
const API = '/api/dcim';

const made = async (path: string, body: object) => {
  const res = await t.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Body;
};
const ids = async (path: string) => ((await t.get(path)).body.results as Body[]).map((r) => r.id);

beforeAll(async () => {
  t = await startServer();
});
afterAll(async () => {
  await t?.close();
});

describe('power panels and feeds', () => {
  it('feed racks of their panel\'s site, with NetBox\'s defaults and rules, counted and filtered', async () => {
    const region = await made(`${API}/regions/`, { name: 'Europe', slug: 'europe' });
    const site = await made(`${API}/sites/`, { name: 'Paris', slug: 'paris', region: region.id });
    const other = await made(`${API}/sites/`, { name: 'Oslo', slug: 'oslo' });
    const elsewhere = await made(`${API}/locations/`, { name: 'Hall', slug: 'hall', site: other.id });
    expect((await t.post(`${API}/power-panels/`, { site: site.id, location: elsewhere.id, name: 'P1' })).body).toEqual({
      location: ['Location Hall (Oslo) is in a different site than Paris.'],
    });
    const panel = await made(`${API}/power-panels/`, { site: site.id, name: 'P1' });
    expect((await t.post(`${API}/power-panels/`, { site: site.id, name: 'P1' })).status).toBe(400);
    const rack = await made(`${API}/racks/`, { name: 'R1', site: site.id });
    const farRack = await made(`${API}/racks/`, { name: 'R9', site: other.id });

    const feed = await made(`${API}/power-feeds/`, { power_panel: panel.id, rack: rack.id, name: 'A' });
    expect(feed).toMatchObject({
      display: 'A', power_panel: { id: panel.id, name: 'P1' }, rack: { id: rack.id }, status: { value: 'active' }, type: { value: 'primary', label: 'Primary' },
      supply: { value: 'ac', label: 'AC' }, phase: { value: 'single-phase', label: 'Single phase' }, voltage: 120, amperage: 15, max_utilization: 80, mark_connected: false,
    });
    expect((await t.post(`${API}/power-feeds/`, { power_panel: panel.id, rack: farRack.id, name: 'B' })).body).toEqual({
      rack: ['Rack R9 (Oslo) and power panel P1 (Paris) are in different sites.'],
    });
    expect((await t.post(`${API}/power-feeds/`, { power_panel: panel.id, name: 'B', voltage: -48 })).body).toEqual({ voltage: ['Voltage cannot be negative for AC supply'] });
    expect((await t.post(`${API}/power-feeds/`, { power_panel: panel.id, name: 'B', voltage: 0 })).body).toEqual({ voltage: ['Voltage cannot be zero (0).'] });
    expect((await t.post(`${API}/power-feeds/`, { power_panel: panel.id, name: 'B', max_utilization: 101 })).status).toBe(400);
    const dc = await made(`${API}/power-feeds/`, { power_panel: panel.id, name: 'B', supply: 'dc', voltage: -48, amperage: 100, max_utilization: 100 });
    const three = await made(`${API}/power-feeds/`, { power_panel: panel.id, name: 'C', phase: 'three-phase', voltage: 208, amperage: 30 });
    expect((await t.post(`${API}/power-feeds/`, { power_panel: panel.id, name: 'A' })).status).toBe(400);

    expect((await t.get(`${API}/power-panels/${panel.id}/`)).body.powerfeed_count).toBe(3);
    expect((await t.get(`${API}/racks/${rack.id}/`)).body.powerfeed_count).toBe(1);
    // Available power: 120 V × 15 A × 80 % = 1440; 48 × 100 = 4800; 208 × 30 × 80 % × 1.732 = 8646.
    expect(await ids(`${API}/power-feeds/?available_power=1440`)).toEqual([feed.id]);
    expect(await ids(`${API}/power-feeds/?available_power__gte=4800`)).toEqual([dc.id, three.id]);
    expect(await ids(`${API}/power-feeds/?available_power__gt=8000`)).toEqual([three.id]);
    expect(await ids(`${API}/power-feeds/?region=europe&supply=dc`)).toEqual([dc.id]);
    expect(await ids(`${API}/power-feeds/?q=P1`)).toEqual([feed.id, dc.id, three.id]);
    expect(await ids(`${API}/power-panels/?site=paris`)).toEqual([panel.id]);
    expect((await t.get(`${API}/power-feeds/?available_power=lots`)).status).toBe(400);
    // A panel with feeds stays.
    expect((await t.request('DELETE', `${API}/power-panels/${panel.id}/`)).status).toBe(409);
  });
});
