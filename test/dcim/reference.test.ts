import { referenceSuite } from '../helpers/reference.js';

/** What the reference has that dcim does not have yet, by what brings it. */
const PENDING: Record<string, string[]> = {
  'cabling (issue 14)': [
    'dcim.cable', 'dcim.cabletermination', 'dcim.powerpanel', 'dcim.powerfeed',
    'cable', 'cable_end', 'link_peers', 'link_peers_type', '_occupied', 'connected_endpoints', 'connected_endpoints_type',
    'connected_endpoints_reachable', 'powerfeed_count', 'cabled', 'connected', 'occupied', 'cable_id',
  ],
  'virtualization and circuits (issue 13)': [
    'cluster', 'virtualmachine_count', 'circuit_count', 'cluster_id', 'cluster_group', 'cluster_group_id', 'virtual_machine',
    'virtual_machine_id', 'vminterface', 'vminterface_id', 'virtual_circuit_id', 'virtual_circuit_termination_id',
  ],
  'configuration rendering': ['config_template', 'config_context', 'config_template_id'],
  'wireless and VPN, apps Patchbay does not have': ['wireless_link', 'wireless_lans', 'l2vpn_termination', 'wireless_lan_id', 'wireless_link_id', 'l2vpn', 'l2vpn_id'],
};

referenceSuite('dcim', PENDING);
