import { referenceSuite } from '../helpers/reference.js';

/** What the reference has that ipam does not have yet, by what brings it. */
const PENDING: Record<string, string[]> = {
  'L2VPN, an app Patchbay does not have': ['exporting_l2vpn', 'exporting_l2vpn_id', 'importing_l2vpn', 'importing_l2vpn_id', 'l2vpn_termination', 'l2vpn', 'l2vpn_id'],
};

referenceSuite('ipam', PENDING);
