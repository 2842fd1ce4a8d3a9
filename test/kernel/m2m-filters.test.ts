import { describe, expect, it } from 'vitest';
import { defineModel, f } from '../../kernel/index.js';
import { FilterSets } from '../../kernel/model/filter-sets.js';
import { ModelRegistry } from '../../kernel/model/registry.js';

describe('many-to-many filters', () => {
  it("keep the field's name, by id and by natural key, unless the declaration names them", () => {
    const policy = defineModel('bgp.routingpolicy', { path: 'routing-policies', fields: { name: f.string({ max: 100, unique: true }) }, brief: ['name'] });
    const group = defineModel('bgp.peergroup', { path: 'peer-groups', fields: { name: f.string({ max: 100, unique: true }) }, brief: ['name'] });
    const session = defineModel('bgp.session', {
      path: 'sessions',
      fields: {
        name: f.string({ max: 100 }),
        import_policies: f.m2m('bgp.routingpolicy'),
        peer_groups: f.m2m('bgp.peergroup', { filterName: 'peer_group' }),
      },
      brief: ['name'],
    });
    const registry = new ModelRegistry();
    for (const model of [policy, group, session]) registry.register(model, { api: '/api/plugins/bgp/', ui: '/plugins/bgp/' });
    registry.finalize();
    const names = [...new FilterSets(registry).of(registry.get('bgp.session')).keys()];
    expect(names).toEqual(expect.arrayContaining(['import_policies_id', 'import_policies', 'peer_group_id', 'peer_group']));
    // Not a plural cut short, nor the field's name where the declaration chose another.
    expect(names.filter((n) => /^(import_policie|peer_groups)(_id)?$/.test(n))).toEqual([]);
  });
});
