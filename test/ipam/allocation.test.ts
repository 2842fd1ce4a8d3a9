import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Body, type TestServer } from '../helpers/server.js';

let t: TestServer;
const API = '/api/ipam';
const free = async (path: string) => {
  const reply = await t.get(path);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return (reply.body as Body[]).map((a) => a.address as string);
};

beforeAll(async () => {
  t = await startServer();
});
afterAll(async () => {
  await t?.close();
});

describe('available IPs of a prefix', () => {
  it('lists free addresses in order with the prefix mask and VRF, skipping the network, broadcast, taken and populated ones', async () => {
    const { body: vrf } = await t.post(`${API}/vrfs/`, { name: 'Alloc', rd: '65010:1' });
    const { body: prefix } = await t.post(`${API}/prefixes/`, { prefix: '192.0.2.0/29', vrf: vrf.id });
    await t.post(`${API}/ip-addresses/`, [{ address: '192.0.2.2/29', vrf: vrf.id }, { address: '192.0.2.2/29' }]);
    await t.post(`${API}/ip-ranges/`, { start_address: '192.0.2.4/29', end_address: '192.0.2.5/29', vrf: vrf.id, mark_populated: true });
    const reply = await t.get(`${API}/prefixes/${prefix.id}/available-ips/`);
    expect(reply.body).toEqual([
      { family: 4, address: '192.0.2.1/29', vrf: expect.objectContaining({ id: vrf.id, name: 'Alloc', rd: '65010:1' }) },
      { family: 4, address: '192.0.2.3/29', vrf: expect.objectContaining({ id: vrf.id }) },
      { family: 4, address: '192.0.2.6/29', vrf: expect.objectContaining({ id: vrf.id }) },
    ]);
    expect(await free(`${API}/prefixes/${prefix.id}/available-ips/?limit=2`)).toEqual(['192.0.2.1/29', '192.0.2.3/29']);
    // A pool hands out every address.
    await t.request('PATCH', `${API}/prefixes/${prefix.id}/`, { body: { is_pool: true } });
    expect(await free(`${API}/prefixes/${prefix.id}/available-ips/`)).toEqual(['192.0.2.0/29', '192.0.2.1/29', '192.0.2.3/29', '192.0.2.6/29', '192.0.2.7/29']);
  });

  it('IPv6: all but the subnet-router anycast address; a /31 or /127 uses both', async () => {
    const { body: v6 } = await t.post(`${API}/prefixes/`, { prefix: '2001:db8:1::/64' });
    expect(await free(`${API}/prefixes/${v6.id}/available-ips/?limit=3`)).toEqual(['2001:db8:1::1/64', '2001:db8:1::2/64', '2001:db8:1::3/64']);
    const { body: p2p } = await t.post(`${API}/prefixes/`, { prefix: '198.51.100.0/31' });
    expect(await free(`${API}/prefixes/${p2p.id}/available-ips/`)).toEqual(['198.51.100.0/31', '198.51.100.1/31']);
  });

  it('a global container counts the addresses of every VRF inside it', async () => {
    const { body: container } = await t.post(`${API}/prefixes/`, { prefix: '203.0.113.0/29', status: 'container' });
    const { body: vrf } = await t.post(`${API}/vrfs/`, { name: 'Inside' });
    await t.post(`${API}/ip-addresses/`, { address: '203.0.113.1/29', vrf: vrf.id });
    expect(await free(`${API}/prefixes/${container.id}/available-ips/?limit=1`)).toEqual(['203.0.113.2/29']);
  });

  it('POST creates the next free addresses with the given fields, one or a list; 409 when the prefix is full', async () => {
    const { body: prefix } = await t.post(`${API}/prefixes/`, { prefix: '100.64.10.0/30' });
    const one = await t.post(`${API}/prefixes/${prefix.id}/available-ips/`, { description: 'first', status: 'reserved', dns_name: 'A.example.com' });
    expect(one.status, JSON.stringify(one.body)).toBe(201);
    expect(one.body).toMatchObject({ address: '100.64.10.1/30', description: 'first', status: { value: 'reserved' }, dns_name: 'a.example.com', vrf: null });
    const full = await t.post(`${API}/prefixes/${prefix.id}/available-ips/`, [{ description: 'x' }, { description: 'y' }]);
    expect(full.status).toBe(409);
    expect(full.body).toEqual({ detail: 'Insufficient resources are available to satisfy the request' });
    expect((await t.post(`${API}/prefixes/${prefix.id}/available-ips/`, { status: 'bogus' })).body).toEqual({ status: ['bogus is not a valid choice.'] });
    const last = await t.post(`${API}/prefixes/${prefix.id}/available-ips/`, [{ description: 'second' }]);
    expect(last.status).toBe(201);
    expect(last.body.map((a: Body) => a.address)).toEqual(['100.64.10.2/30']);
    expect((await t.post(`${API}/prefixes/${prefix.id}/available-ips/`, {})).status).toBe(409);
    expect((await t.get(`${API}/ip-addresses/?parent=100.64.10.0/30`)).body.count).toBe(2);
    expect((await t.request('PUT', `${API}/prefixes/${prefix.id}/available-ips/`, { body: {} })).status).toBe(405);
    expect((await t.get(`${API}/prefixes/999999/available-ips/`)).status).toBe(404);
  });

  it('20 parallel clients never receive the same address and never see a server error', async () => {
    const { body: prefix } = await t.post(`${API}/prefixes/`, { prefix: '10.77.0.0/24' });
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => t.post(`${API}/prefixes/${prefix.id}/available-ips/`, [{ description: `client ${i}` }, { description: `client ${i}` }])));
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 201));
    const given = replies.flatMap((r) => (r.body as Body[]).map((a) => a.address as string));
    expect(new Set(given).size).toBe(40);
    expect(given.map((a) => Number(a.split('/')[0].split('.')[3])).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it('answers a /8 holding many addresses as quickly as it reads them: from the first free one on', async () => {
    const { body: big } = await t.post(`${API}/prefixes/`, { prefix: '11.0.0.0/8' });
    await t.server.db.knex.raw(`insert into ipam_ipaddress (address, status, role, dns_name, description, comments, created, last_updated)
      select ('11.0.' || (i / 256) || '.' || (i % 256) || '/8')::inet, 'active', '', '', '', '', now(), now() from generate_series(1, 5000) i`);
    expect(await free(`${API}/prefixes/${big.id}/available-ips/?limit=2`)).toEqual(['11.0.19.137/8', '11.0.19.138/8']);
  });

  it('reads the runs between taken addresses until enough are left once populated ranges are taken out', async () => {
    const { body: sparse } = await t.post(`${API}/prefixes/`, { prefix: '100.70.0.0/24' });
    // Every odd address taken; a populated range over the first even ones: free runs are read in several rounds.
    await t.server.db.knex.raw(`insert into ipam_ipaddress (address, status, role, dns_name, description, comments, created, last_updated)
      select ('100.70.0.' || i || '/24')::inet, 'active', '', '', '', '', now(), now() from generate_series(1, 99, 2) i`);
    await t.post(`${API}/ip-ranges/`, { start_address: '100.70.0.2/24', end_address: '100.70.0.40/24', mark_populated: true });
    expect(await free(`${API}/prefixes/${sparse.id}/available-ips/?limit=4`)).toEqual(['100.70.0.42/24', '100.70.0.44/24', '100.70.0.46/24', '100.70.0.48/24']);
    expect((await free(`${API}/prefixes/${sparse.id}/available-ips/?limit=60`)).slice(28)).toEqual([
      '100.70.0.98/24', '100.70.0.100/24', '100.70.0.101/24', '100.70.0.102/24', ...Array.from({ length: 28 }, (_, i) => `100.70.0.${103 + i}/24`),
    ]);
  });
});

describe('available IPs of a range', () => {
  it('lists and takes from start to end; a populated range has none', async () => {
    const { body: range } = await t.post(`${API}/ip-ranges/`, { start_address: '172.30.0.10/24', end_address: '172.30.0.12/24' });
    await t.post(`${API}/ip-addresses/`, { address: '172.30.0.11/24' });
    expect(await free(`${API}/ip-ranges/${range.id}/available-ips/`)).toEqual(['172.30.0.10/24', '172.30.0.12/24']);
    const taken = await t.post(`${API}/ip-ranges/${range.id}/available-ips/`, [{}, {}]);
    expect(taken.body.map((a: Body) => a.address)).toEqual(['172.30.0.10/24', '172.30.0.12/24']);
    expect(await free(`${API}/ip-ranges/${range.id}/available-ips/`)).toEqual([]);
    const { body: populated } = await t.post(`${API}/ip-ranges/`, { start_address: '172.30.1.10/24', end_address: '172.30.1.12/24', mark_populated: true });
    expect(await free(`${API}/ip-ranges/${populated.id}/available-ips/`)).toEqual([]);
  });
});

describe('available prefixes', () => {
  it('lists the free space as the fewest CIDR blocks, children of the VRF taken out', async () => {
    const { body: vrf } = await t.post(`${API}/vrfs/`, { name: 'Blocks' });
    const { body: parent } = await t.post(`${API}/prefixes/`, { prefix: '10.30.0.0/22', vrf: vrf.id });
    await t.post(`${API}/prefixes/`, [
      { prefix: '10.30.0.0/24', vrf: vrf.id }, { prefix: '10.30.0.0/25', vrf: vrf.id }, { prefix: '10.30.2.64/26', vrf: vrf.id }, { prefix: '10.30.1.0/24' },
    ]);
    const blocks = async (query = '') => ((await t.get(`${API}/prefixes/${parent.id}/available-prefixes/${query}`)).body as Body[]).map((b) => b.prefix as string);
    expect(await blocks()).toEqual(['10.30.1.0/24', '10.30.2.0/26', '10.30.2.128/25', '10.30.3.0/24']);
    expect((await t.get(`${API}/prefixes/${parent.id}/available-prefixes/?limit=1`)).body).toEqual([
      { family: 4, prefix: '10.30.1.0/24', vrf: expect.objectContaining({ id: vrf.id, name: 'Blocks' }) },
    ]);
    // Taking a /26 and a /24: the first block each fits in, created in the parent's VRF.
    const taken = await t.post(`${API}/prefixes/${parent.id}/available-prefixes/`, [{ prefix_length: 26, description: 'a' }, { prefix_length: 24, status: 'reserved' }]);
    expect(taken.status, JSON.stringify(taken.body)).toBe(201);
    expect(taken.body.map((p: Body) => [p.prefix, p.vrf.id, p.status.value])).toEqual([['10.30.1.0/26', vrf.id, 'active'], ['10.30.3.0/24', vrf.id, 'reserved']]);
    expect(await blocks()).toEqual(['10.30.1.64/26', '10.30.1.128/25', '10.30.2.0/26', '10.30.2.128/25']);
    expect((await t.post(`${API}/prefixes/${parent.id}/available-prefixes/`, { prefix_length: 23 })).status).toBe(409);
    expect((await t.post(`${API}/prefixes/${parent.id}/available-prefixes/`, {})).body).toEqual({ prefix_length: ['This field is required.'] });
    expect((await t.post(`${API}/prefixes/${parent.id}/available-prefixes/`, { prefix_length: 33 })).body).toEqual({ prefix_length: ['Invalid prefix length (33) for IPv4.'] });
    expect((await t.post(`${API}/prefixes/${parent.id}/available-prefixes/`, { prefix_length: 'x' })).body).toEqual({ prefix_length: ['A valid integer is required.'] });
  });

  it('IPv6, and parallel clients never receive the same block', async () => {
    const { body: parent } = await t.post(`${API}/prefixes/`, { prefix: '2001:db8:100::/48' });
    expect(((await t.get(`${API}/prefixes/${parent.id}/available-prefixes/`)).body as Body[]).map((b) => b.prefix)).toEqual(['2001:db8:100::/48']);
    const replies = await Promise.all(Array.from({ length: 20 }, () => t.post(`${API}/prefixes/${parent.id}/available-prefixes/`, { prefix_length: 64 })));
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 201));
    const first20 = Array.from({ length: 20 }, (_, i) => (i ? `2001:db8:100:${i.toString(16)}::/64` : '2001:db8:100::/64'));
    expect(new Set(replies.map((r) => r.body.prefix))).toEqual(new Set(first20));
  });
});

describe('available ASNs', () => {
  it('lists and takes the free numbers of a range, with its RIR', async () => {
    const { body: rir } = await t.post(`${API}/rirs/`, { name: 'Private ASNs', slug: 'private-asns' });
    const { body: range } = await t.post(`${API}/asn-ranges/`, { name: 'Lab', slug: 'lab', rir: rir.id, start: 65100, end: 65104 });
    await t.post(`${API}/asns/`, { asn: 65101 });
    expect((await t.get(`${API}/asn-ranges/${range.id}/available-asns/`)).body).toEqual([{ asn: 65100 }, { asn: 65102 }, { asn: 65103 }, { asn: 65104 }]);
    const taken = await t.post(`${API}/asn-ranges/${range.id}/available-asns/`, [{ description: 'x' }, { description: 'y' }]);
    expect(taken.body.map((a: Body) => [a.asn, a.rir.id, a.description])).toEqual([[65100, rir.id, 'x'], [65102, rir.id, 'y']]);
    const parallel = await Promise.all([1, 2, 3].map(() => t.post(`${API}/asn-ranges/${range.id}/available-asns/`, {})));
    expect(parallel.map((r) => r.status).sort()).toEqual([201, 201, 409]);
    expect((await t.get(`${API}/asn-ranges/${range.id}/available-asns/`)).body).toEqual([]);
  });
});
