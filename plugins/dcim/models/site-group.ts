import { defineModel, nestedGroup } from 'patchbay';

export const SiteGroup = defineModel('dcim.sitegroup', {
  path: 'site-groups',
  ...nestedGroup('dcim.sitegroup', { verboseName: 'site group', count: 'site_count' }),
  ordering: ['parent'],
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts'],
});
