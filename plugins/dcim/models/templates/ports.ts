import { ValidationError, f } from 'patchbay';
import { ConsolePortType, PortType, PowerOutletFeedLeg, PowerOutletType, PowerPortType } from '../../choices/index.js';
import { defineTemplate, sameOwner } from './template.js';

export const ConsolePortTemplate = defineTemplate('dcim.consoleporttemplate', {
  path: 'console-port-templates',
  verboseName: 'console port template',
  countAs: 'console_port_template_count',
  features: ['inventoryTemplateTarget'],
  fields: { type: f.choice(ConsolePortType, { blank: true }) },
});

export const ConsoleServerPortTemplate = defineTemplate('dcim.consoleserverporttemplate', {
  path: 'console-server-port-templates',
  verboseName: 'console server port template',
  countAs: 'console_server_port_template_count',
  features: ['inventoryTemplateTarget'],
  fields: { type: f.choice(ConsolePortType, { blank: true }) },
});

export const PowerPortTemplate = defineTemplate('dcim.powerporttemplate', {
  path: 'power-port-templates',
  verboseName: 'power port template',
  countAs: 'power_port_template_count',
  features: ['inventoryTemplateTarget'],
  fields: {
    type: f.choice(PowerPortType, { nullable: true }),
    maximum_draw: f.integer({ min: 1, max: 32767, nullable: true }),
    allocated_draw: f.integer({ min: 1, max: 32767, nullable: true }),
  },
  validate(row) {
    if (row.maximum_draw && row.allocated_draw && (row.allocated_draw as number) > (row.maximum_draw as number)) {
      throw ValidationError.of('allocated_draw', `Allocated draw cannot exceed the maximum draw (${row.maximum_draw}W).`);
    }
  },
});

export const PowerOutletTemplate = defineTemplate('dcim.poweroutlettemplate', {
  path: 'power-outlet-templates',
  verboseName: 'power outlet template',
  countAs: 'power_outlet_template_count',
  features: ['inventoryTemplateTarget'],
  fields: {
    type: f.choice(PowerOutletType, { nullable: true }),
    power_port: f.fk('dcim.powerporttemplate', { nullable: true, related: 'poweroutlet_templates' }),
    feed_leg: f.choice(PowerOutletFeedLeg, { nullable: true }),
  },
  async validate(row, ctx) {
    if (!row.power_port_id) return;
    const port = await ctx.stored(PowerPortTemplate, row.power_port_id as number);
    sameOwner(row, port, (owner) => ValidationError.of('__all__', `Parent power port (${port?.name}) must belong to the same ${owner}`));
  },
});

export const RearPortTemplate = defineTemplate('dcim.rearporttemplate', {
  path: 'rear-port-templates',
  verboseName: 'rear port template',
  countAs: 'rear_port_template_count',
  features: ['inventoryTemplateTarget'],
  fields: {
    type: f.choice(PortType),
    color: f.color({ blank: true }),
    positions: f.integer({ min: 1, max: 1024, default: 1 }),
  },
});

export const FrontPortTemplate = defineTemplate('dcim.frontporttemplate', {
  path: 'front-port-templates',
  verboseName: 'front port template',
  countAs: 'front_port_template_count',
  features: ['inventoryTemplateTarget'],
  fields: {
    type: f.choice(PortType),
    color: f.color({ blank: true }),
    rear_port: f.fk('dcim.rearporttemplate', { onDelete: 'cascade', related: 'frontport_templates' }),
    rear_port_position: f.integer({ min: 1, max: 1024, default: 1 }),
  },
  unique: [{ fields: ['rear_port', 'rear_port_position'] }],
  async validate(row, ctx) {
    const rear = await ctx.stored(RearPortTemplate, row.rear_port_id as number);
    if (!rear) return;
    sameOwner(row, rear, (owner) => ValidationError.of('__all__', `Rear port (${rear.name}) must belong to the same ${owner}`));
    if ((row.rear_port_position as number) > (rear.positions as number)) {
      throw ValidationError.of('__all__', `Invalid rear port position (${row.rear_port_position}); rear port ${rear.name} has only ${rear.positions} positions`);
    }
  },
});
