import { ValidationError, f, type Row, type WriteSession } from 'patchbay';
import { nodeOf } from '../../cabling/nodes.js';
import { frontToRear, rearToFront } from '../../cabling/pass-through.js';
import { retraceIn } from '../../cabling/paths.js';
import { ConsolePortSpeed, ConsolePortType, PortType, PowerOutletFeedLeg, PowerOutletStatus, PowerOutletType, PowerPortType } from '../../choices/index.js';
import { countRows } from '../../rules/count-rows.js';
import { defineComponent } from './component.js';

/** What front and rear ports cable to (circuit terminations name them in turn). */
const PORTS_CONNECT_TO = ['dcim.consoleport', 'dcim.consoleserverport', 'dcim.interface', 'dcim.frontport', 'dcim.rearport'];

/** Re-traces the paths through front ports and their rear ports (a mapping changed, or the port went). */
async function retracePorts(fronts: Row[], session: WriteSession): Promise<void> {
  await retraceIn(session, fronts.flatMap((f) => [nodeOf('dcim.frontport', f.id as number), nodeOf('dcim.rearport', f.rear_port_id as number)]));
}

export const ConsolePort = defineComponent('dcim.consoleport', {
  path: 'console-ports',
  verboseName: 'console port',
  countAs: 'console_port_count',
  fields: { type: f.choice(ConsolePortType, { blank: true }), speed: f.choice(ConsolePortSpeed, { nullable: true }) },
  cable: { connectsTo: ['dcim.consoleserverport', 'dcim.frontport', 'dcim.rearport'] },
  features: ['inventoryTarget'],
});

export const ConsoleServerPort = defineComponent('dcim.consoleserverport', {
  path: 'console-server-ports',
  verboseName: 'console server port',
  countAs: 'console_server_port_count',
  fields: { type: f.choice(ConsolePortType, { blank: true }), speed: f.choice(ConsolePortSpeed, { nullable: true }) },
  cable: { connectsTo: ['dcim.consoleport', 'dcim.frontport', 'dcim.rearport'] },
  features: ['inventoryTarget'],
});

export const PowerPort = defineComponent('dcim.powerport', {
  path: 'power-ports',
  verboseName: 'power port',
  countAs: 'power_port_count',
  fields: {
    type: f.choice(PowerPortType, { nullable: true }),
    maximum_draw: f.integer({ min: 1, max: 32767, nullable: true }),
    allocated_draw: f.integer({ min: 1, max: 32767, nullable: true }),
  },
  cable: { connectsTo: ['dcim.poweroutlet', 'dcim.powerfeed'] },
  features: ['inventoryTarget'],
  validate(row) {
    if (row.maximum_draw && row.allocated_draw && (row.allocated_draw as number) > (row.maximum_draw as number)) {
      throw ValidationError.of('allocated_draw', `Allocated draw cannot exceed the maximum draw (${row.maximum_draw}W).`);
    }
  },
});

export const PowerOutlet = defineComponent('dcim.poweroutlet', {
  path: 'power-outlets',
  verboseName: 'power outlet',
  countAs: 'power_outlet_count',
  fields: {
    type: f.choice(PowerOutletType, { nullable: true }),
    status: f.choice(PowerOutletStatus, { default: 'enabled' }),
    color: f.color({ blank: true }),
    power_port: f.fk('dcim.powerport', { nullable: true, related: 'poweroutlets' }),
    feed_leg: f.choice(PowerOutletFeedLeg, { nullable: true }),
  },
  cable: { connectsTo: ['dcim.powerport'] },
  features: ['inventoryTarget'],
  async validate(row, ctx) {
    if (!row.power_port_id) return;
    const port = await ctx.stored(PowerPort, row.power_port_id as number);
    if (port && port.device_id !== row.device_id) throw ValidationError.of('__all__', `Parent power port (${port.name}) must belong to the same device`);
  },
});

export const RearPort = defineComponent('dcim.rearport', {
  path: 'rear-ports',
  verboseName: 'rear port',
  countAs: 'rear_port_count',
  fields: { type: f.choice(PortType), color: f.color({ blank: true }), positions: f.integer({ min: 1, max: 1024, default: 1 }) },
  cable: { passThrough: rearToFront, connectsTo: PORTS_CONNECT_TO },
  features: ['inventoryTarget'],
  hooks: {
    async afterSave(items, session) {
      const changed = items.filter((i) => i.instance && i.instance.positions !== i.row.positions);
      await retraceIn(session, changed.map((i) => nodeOf('dcim.rearport', i.row.id as number)));
    },
  },
  async validate(row, ctx) {
    if (!ctx.instance) return;
    const mapped = await countRows(ctx, FrontPort.table, 'rear_port_id', row.id as number);
    if ((row.positions as number) < mapped) {
      throw ValidationError.of('positions', `The number of positions cannot be less than the number of mapped front ports (${mapped})`);
    }
  },
});

export const FrontPort = defineComponent('dcim.frontport', {
  path: 'front-ports',
  verboseName: 'front port',
  countAs: 'front_port_count',
  fields: {
    type: f.choice(PortType),
    color: f.color({ blank: true }),
    rear_port: f.fk('dcim.rearport', { onDelete: 'cascade', related: 'frontports' }),
    rear_port_position: f.integer({ min: 1, max: 1024, default: 1 }),
  },
  cable: { passThrough: frontToRear, connectsTo: PORTS_CONNECT_TO },
  hooks: {
    async afterSave(items, session) {
      const moved = items.filter((i) => !i.instance || i.instance.rear_port_id !== i.row.rear_port_id || i.instance.rear_port_position !== i.row.rear_port_position);
      await retracePorts([...moved.map((i) => i.row), ...moved.flatMap((i) => (i.instance ? [i.instance] : []))], session);
    },
    afterDelete: (rows, session) => retracePorts(rows, session),
  },
  unique: [{ fields: ['device', 'name'] }, { fields: ['rear_port', 'rear_port_position'] }],
  features: ['inventoryTarget'],
  async validate(row, ctx) {
    const rear = await ctx.stored(RearPort, row.rear_port_id as number);
    if (!rear) return;
    if (rear.device_id !== row.device_id) throw ValidationError.of('rear_port', `Rear port (${rear.name}) must belong to the same device`);
    if ((row.rear_port_position as number) > (rear.positions as number)) {
      throw ValidationError.of(
        'rear_port_position',
        `Invalid rear port position (${row.rear_port_position}): Rear port ${rear.name} has only ${rear.positions} positions.`,
      );
    }
  },
});
