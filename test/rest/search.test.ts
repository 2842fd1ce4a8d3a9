import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchTerms } from '../../kernel/model/search.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** NetBox's lookups as its `q` entries name them; an entry without one compares exactly. */
const LOOKUPS = new Set(['exact', 'iexact', 'contains', 'icontains', 'startswith', 'istartswith', 'net_contains_or_equals']);

/** `terminations:xconnect_id:icontains` → `terminations__xconnect_id:icontains`; `vid` → `vid:exact`. */
function normalized(entry: string): string {
  const parts = entry.split(':');
  const lookup = LOOKUPS.has(parts.at(-1)!) ? parts.pop()! : 'exact';
  return `${parts.join('__')}:${lookup}`;
}

const reference = (JSON.parse(readFileSync(new URL('../fixtures/search-reference.json', import.meta.url), 'utf8')) as { models: Record<string, string[]> }).models;

/** Entries of the reference Patchbay leaves out, and why: each must still be missing (the list only shrinks). */
const LEFT_OUT: Record<string, { entry: string; why: string }> = {
  'extras.eventrule': { entry: 'comments:icontains', why: "NetBox's event rule API has no comments field to write them" },
};

let t: TestServer;
beforeAll(async () => {
  t = await startServer();
});
afterAll(async () => {
  await t?.close();
});

describe('?q= on every model', () => {
  it("compares the fields with the lookups of the model's reference entry", () => {
    const differences: string[] = [];
    for (const [key, entries] of Object.entries(reference)) {
      const model = t.server.registry.find(key);
      if (!model) continue;
      const ours = searchTerms(model, t.server.registry).map((term) => `${term.path.join('__')}:${term.lookup}`).sort();
      const theirs = entries.map(normalized).filter((e) => LEFT_OUT[key]?.entry !== e).sort();
      if (LEFT_OUT[key] && !entries.map(normalized).includes(LEFT_OUT[key].entry)) differences.push(`${key}: ${LEFT_OUT[key].entry} is not in the reference`);
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) differences.push(`${key}: ${JSON.stringify(ours)} vs ${JSON.stringify(theirs)}`);
    }
    expect(differences).toEqual([]);
  });

  it('answers any text on every model: an address, a number, a quote and wildcards', async () => {
    const failures: string[] = [];
    for (const model of t.server.registry.all().filter((m) => m.served && t.server.filters.of(m).has('q'))) {
      for (const text of ['10.0.0.0/8', '65001', '"%_\\', 'ab:cd::1']) {
        const path = `${t.server.registry.apiPath(model)}?q=${encodeURIComponent(text)}`;
        const res = await t.get(path);
        if (res.status !== 200) failures.push(`${path} → ${res.status} ${res.text.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('?q= compares each term with its own lookup', () => {
  const ids = async (path: string, q: string) => {
    const res = await t.get(`${path}?q=${encodeURIComponent(q)}&limit=0&ordering=id`);
    expect(res.status, res.text).toBe(200);
    return (res.body.results as { id: number }[]).map((r) => r.id);
  };
  const create = async (path: string, body: object) => {
    const res = await t.post(path, body);
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };

  it("finds IP addresses by the address's start, as prefixes by containment, and skips what the text cannot be", async () => {
    const IPS = '/api/ipam/ip-addresses/';
    const first = await create(IPS, { address: '10.0.0.1/24' });
    const tenth = await create(IPS, { address: '10.0.0.10/24' });
    await create(IPS, { address: '10.0.1.1/24' });
    const named = await create(IPS, { address: '192.0.2.7/24', dns_name: 'web10.example.com' });
    expect(await ids(IPS, '10.0.0.1')).toEqual([first, tenth]);
    expect(await ids(IPS, 'web10')).toEqual([named]);

    const PREFIXES = '/api/ipam/prefixes/';
    const wide = await create(PREFIXES, { prefix: '10.0.0.0/16' });
    const narrow = await create(PREFIXES, { prefix: '10.0.5.0/24' });
    // Containment of the address, or the text inside the prefix's.
    expect(await ids(PREFIXES, '10.0.5.9')).toEqual([wide, narrow]);
    expect(await ids(PREFIXES, '0.5.')).toEqual([narrow]);
    expect(await ids(PREFIXES, 'not an address')).toEqual([]);

    const rir = await create('/api/ipam/rirs/', { name: 'RIPE', slug: 'ripe' });
    const asn = await create('/api/ipam/asns/', { asn: 65001, rir });
    await create('/api/ipam/asns/', { asn: 165001, rir });
    expect(await ids('/api/ipam/asns/', '65001')).toEqual([asn]);
    // Text no integer column can hold is no 500: the number's term is left out.
    expect(await ids('/api/ipam/asns/', 'AS65001')).toEqual([]);
    expect(await ids('/api/ipam/vlans/', '99999999999999')).toEqual([]);
    const vlan = await create('/api/ipam/vlans/', { vid: 100, name: 'servers' });
    expect(await ids('/api/ipam/vlans/', '100')).toEqual([vlan]);
  });

  it('follows relations, lists other models offer and generic relations', async () => {
    const provider = await create('/api/circuits/providers/', { name: 'Telco', slug: 'telco' });
    const circuitType = await create('/api/circuits/circuit-types/', { name: 'Transit', slug: 'transit' });
    const circuit = await create('/api/circuits/circuits/', { cid: 'C-1', provider, type: circuitType });
    await create('/api/circuits/circuits/', { cid: 'C-2', provider, type: circuitType });
    await create('/api/circuits/circuit-terminations/', { circuit, term_side: 'A', xconnect_id: 'XC-4711' });
    // Through the terminations a circuit has (a list the termination's relation offers).
    expect(await ids('/api/circuits/circuits/', 'xc-47')).toEqual([circuit]);
    const group = await create('/api/circuits/circuit-groups/', { name: 'Backbone', slug: 'backbone' });
    const assignment = await create('/api/circuits/circuit-group-assignments/', { group, member_type: 'circuits.circuit', member_id: circuit });
    // The member's circuit ID, through the generic relation, or the group's name.
    expect(await ids('/api/circuits/circuit-group-assignments/', 'C-1')).toEqual([assignment]);
    expect(await ids('/api/circuits/circuit-group-assignments/', 'backb')).toEqual([assignment]);
    expect(await ids('/api/circuits/circuit-group-assignments/', 'C-2')).toEqual([]);

    // A virtual chassis by the name of one of its members (a reverse relation).
    const site = await create('/api/dcim/sites/', { name: 'Search site', slug: 'search-site' });
    const role = await create('/api/dcim/device-roles/', { name: 'Switch', slug: 'switch' });
    const manufacturer = await create('/api/dcim/manufacturers/', { name: 'Acme', slug: 'acme' });
    const type = await create('/api/dcim/device-types/', { manufacturer, model: 'S1', slug: 's1' });
    const chassis = await create('/api/dcim/virtual-chassis/', { name: 'Stack' });
    await create('/api/dcim/virtual-chassis/', { name: 'Other stack' });
    await create('/api/dcim/devices/', { name: 'core-sw-7', site, role, device_type: type, virtual_chassis: chassis, vc_position: 1 });
    expect(await ids('/api/dcim/virtual-chassis/', 'sw-7')).toEqual([chassis]);
  });
});
