import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readKeys } from '../../kernel/model/render.js';
import { startServer, type TestServer } from '../helpers/server.js';

interface Reference {
  path: string;
  brief: string[];
  fields: string[];
  filters: string[];
}

const { models } = JSON.parse(readFileSync(new URL('../fixtures/dcim-reference.json', import.meta.url), 'utf8')) as { models: Record<string, Reference> };

/**
 * What the reference has that these declarations do not have yet, and why: the issue that brings each name adds
 * it to the declarations. A name listed here that the server already has fails the test, so the list only shrinks.
 */
const PENDING: Record<string, string[]> = {
  'cabling (issue 14)': [
    'dcim.cable', 'dcim.cabletermination', 'dcim.powerpanel', 'dcim.powerfeed',
    'cable', 'cable_end', 'link_peers', 'link_peers_type', '_occupied', 'connected_endpoints', 'connected_endpoints_type',
    'connected_endpoints_reachable', 'powerfeed_count', 'cabled', 'connected', 'occupied', 'cable_id',
  ],
  'ipam (issue 12)': [
    'primary_ip', 'primary_ip4', 'primary_ip6', 'oob_ip', 'vrf', 'untagged_vlan', 'tagged_vlans', 'qinq_svlan', 'vlan_translation_policy',
    'count_ipaddresses', 'count_fhrp_groups', 'prefix_count', 'vlan_count', 'asns', 'primary_ip4_id', 'primary_ip6_id', 'oob_ip_id',
    'has_primary_ip', 'has_oob_ip', 'vlan', 'vlan_id', 'vrf_id', 'vlan_translation_policy_id', 'asn', 'asn_id',
  ],
  'virtualization and circuits (issue 13)': [
    'cluster', 'virtualmachine_count', 'circuit_count', 'cluster_id', 'cluster_group', 'cluster_group_id', 'virtual_machine',
    'virtual_machine_id', 'vminterface', 'vminterface_id', 'virtual_circuit_id', 'virtual_circuit_termination_id',
  ],
  'configuration rendering': ['config_template', 'config_context', 'config_template_id'],
  'wireless and VPN, apps Patchbay does not have': ['wireless_link', 'wireless_lans', 'l2vpn_termination', 'wireless_lan_id', 'wireless_link_id', 'l2vpn', 'l2vpn_id'],
};
const pending = new Set(Object.values(PENDING).flat());

let t: TestServer;
beforeAll(async () => {
  t = await startServer();
});
afterAll(async () => {
  await t?.close();
});

describe('dcim against the NetBox 4.4 reference', () => {
  it('has every model, brief field, field and filter, but those later issues bring', () => {
    const missing: string[] = [];
    const early = new Set<string>();
    const check = (key: string, name: string, present: boolean) => {
      if (!present && !pending.has(name)) missing.push(`${key}: ${name}`);
      if (present && pending.has(name)) early.add(name);
    };
    for (const [key, ref] of Object.entries(models)) {
      const model = t.server.registry.find(key);
      check(key, key, Boolean(model));
      if (!model) continue;
      const keys = new Set(t.server.registry.outputFields(model, 'full').flatMap((f) => readKeys(f, t.server.registry)));
      const brief = t.server.registry.outputFields(model, 'brief').flatMap((f) => readKeys(f, t.server.registry));
      const filters = t.server.filters.of(model);
      // `changelog_message` is write-only: every change-logged write accepts it (tested with the change log).
      for (const name of ref.fields) if (name !== 'changelog_message') check(key, name, keys.has(name));
      expect(brief, `${key} brief`).toEqual(ref.brief.filter((name) => !pending.has(name)));
      for (const name of ref.filters) check(key, name, filters.has(name));
    }
    expect(missing).toEqual([]);
    expect([...early]).toEqual([]);
  });
});
