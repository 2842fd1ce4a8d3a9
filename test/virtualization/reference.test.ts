import { referenceSuite } from '../helpers/reference.js';

/** What the reference has that virtualization does not have yet, by what brings it. */
const PENDING: Record<string, string[]> = {
  'L2VPN, an app Patchbay does not have': ['l2vpn_termination', 'l2vpn', 'l2vpn_id'],
};

referenceSuite('virtualization', PENDING);
