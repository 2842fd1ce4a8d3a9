import { referenceSuite } from '../helpers/reference.js';

/** What the reference has that virtualization does not have yet, by what brings it. */
const PENDING: Record<string, string[]> = {
  'configuration rendering': ['config_template', 'config_context', 'config_template_id'],
  'L2VPN, an app Patchbay does not have': ['l2vpn_termination', 'l2vpn', 'l2vpn_id'],
};

referenceSuite('virtualization', PENDING);
