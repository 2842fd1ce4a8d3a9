import { referenceSuite } from '../helpers/reference.js';

/** What the reference has that dcim does not have yet, by what brings it. */
const PENDING: Record<string, string[]> = {
  'wireless and VPN, apps Patchbay does not have': ['wireless_link', 'wireless_lans', 'l2vpn_termination', 'wireless_lan_id', 'wireless_link_id', 'l2vpn', 'l2vpn_id'],
};

referenceSuite('dcim', PENDING);
