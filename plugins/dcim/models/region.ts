import { defineModel, nestedGroup } from 'patchbay';

export const Region = defineModel('dcim.region', {
  path: 'regions',
  ...nestedGroup('dcim.region', { count: 'site_count' }),
  ordering: ['parent'],
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts'],
});
