import { defineModel, nestedGroup } from '../../../kernel/index.js';

export const SiteGroup = defineModel('dcim.sitegroup', {
  path: 'site-groups',
  ...nestedGroup('dcim.sitegroup', { verboseName: 'site group', count: 'site_count' }),
  ordering: ['parent'],
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts'],
});
