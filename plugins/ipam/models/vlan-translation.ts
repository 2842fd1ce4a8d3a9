import { defineModel, f, loadDisplays, type RenderContext, type Row } from 'patchbay';
import { VID_MAX, VID_MIN } from '../fields/vid-ranges.js';

export const VlanTranslationPolicy = defineModel('ipam.vlantranslationpolicy', {
  path: 'vlan-translation-policies',
  verboseName: 'VLAN translation policy',
  verboseNamePlural: 'VLAN translation policies',
  fields: {
    name: f.string({ max: 100, unique: true }),
    description: f.string({ max: 200, blank: true }),
    rules: f.reverse('ipam.vlantranslationrule', 'policy', { many: true }),
  },
  brief: ['name', 'description'],
  ordering: ['name'],
  search: ['name', 'description'],
  features: ['tags', 'customFields', 'changelog', 'journal'],
});

/** `100 -> 200 (policy)`. */
async function ruleDisplays(rows: Row[], ctx: RenderContext): Promise<Map<number, string>> {
  const policies = await loadDisplays(ctx.registry.get('ipam.vlantranslationpolicy'), rows.map((r) => r.policy_id as number), ctx);
  return new Map(rows.map((r) => [r.id as number, `${r.local_vid} -> ${r.remote_vid} (${policies.get(r.policy_id as number) ?? ''})`]));
}

export const VlanTranslationRule = defineModel('ipam.vlantranslationrule', {
  path: 'vlan-translation-rules',
  verboseName: 'VLAN translation rule',
  fields: {
    policy: f.fk('ipam.vlantranslationpolicy', { onDelete: 'cascade', related: 'rules' }),
    local_vid: f.integer({ min: VID_MIN, max: VID_MAX, label: 'Local VLAN ID' }),
    remote_vid: f.integer({ min: VID_MIN, max: VID_MAX, label: 'Remote VLAN ID' }),
    description: f.string({ max: 200, blank: true }),
  },
  unique: [{ fields: ['policy', 'local_vid'] }, { fields: ['policy', 'remote_vid'] }],
  brief: ['policy', 'local_vid', 'remote_vid', 'description'],
  displayLoader: ruleDisplays,
  displayUses: ['policy', 'local_vid', 'remote_vid'],
  ordering: ['policy', 'local_vid'],
  search: ['policy', 'local_vid', 'remote_vid'],
  parent: 'policy',
  features: ['tags', 'customFields', 'changelog', 'journal'],
});
