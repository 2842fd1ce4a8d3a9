import { ValidationError, f } from 'patchbay';
import { InterfacePoEMode, InterfacePoEType, InterfaceType, WirelessRole } from '../../choices/index.js';
import { checkInterface } from '../../rules/interface-rules.js';
import { defineTemplate, sameOwner } from './template.js';

export const InterfaceTemplate = defineTemplate('dcim.interfacetemplate', {
  path: 'interface-templates',
  verboseName: 'interface template',
  countAs: 'interface_template_count',
  features: ['inventoryTemplateTarget'],
  fields: {
    type: f.choice(InterfaceType),
    enabled: f.boolean({ default: true }),
    mgmt_only: f.boolean({ default: false }),
    bridge: f.fk('dcim.interfacetemplate', { nullable: true, nested: ['id', 'url', 'display', 'name'], related: 'bridge_interfaces' }),
    poe_mode: f.choice(InterfacePoEMode, { nullable: true }),
    poe_type: f.choice(InterfacePoEType, { nullable: true }),
    rf_role: f.choice(WirelessRole, { nullable: true }),
  },
  async validate(row, ctx) {
    checkInterface(row);
    if (!row.bridge_id) return;
    const bridge = await ctx.stored(InterfaceTemplate, row.bridge_id as number);
    sameOwner(row, bridge, (owner) => ValidationError.of('bridge', `Bridge interface (${bridge?.name}) must belong to the same ${owner}`));
  },
});
