import { defineModel, f } from 'patchbay';

/** A BGP community (`65000:100`, or a large one, `65000:1:2`): it has no name, so it says how it displays. */
export const Community = defineModel('bgp.community', {
  path: 'communities',
  // `Community` alone might be another plugin's too: the GraphQL type is BGPCommunityType, its lists bgp_community_list.
  className: 'BGPCommunity',
  fields: {
    value: f.string({ max: 64, unique: true }),
    description: f.string({ max: 200, blank: true }),
  },
  display: (row) => String(row.value),
  displayUses: ['value'],
  brief: ['value', 'description'],
  ordering: ['value'],
  search: ['value', 'description'],
  features: ['changelog'],
});
