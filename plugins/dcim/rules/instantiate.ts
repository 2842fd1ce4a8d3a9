import type { Model, Row, WriteSession } from 'patchbay';

/** One kind of component: the template it comes from and what it copies. */
interface Kind {
  template: string;
  component: string;
  /** Fields copied as they are (body keys; a relation's id is copied). */
  copy: string[];
  /** References to templates of the same type that become references to their components. */
  refs?: Record<string, string>;
  /** Module types have no templates of this kind (device bays, inventory items). */
  deviceOnly?: boolean;
}

/** Every kind, in creation order: a component is created after the components it refers to. */
const KINDS: Kind[] = [
  { template: 'dcim.consoleporttemplate', component: 'dcim.consoleport', copy: ['type'] },
  { template: 'dcim.consoleserverporttemplate', component: 'dcim.consoleserverport', copy: ['type'] },
  { template: 'dcim.powerporttemplate', component: 'dcim.powerport', copy: ['type', 'maximum_draw', 'allocated_draw'] },
  { template: 'dcim.poweroutlettemplate', component: 'dcim.poweroutlet', copy: ['type', 'feed_leg'], refs: { power_port: 'dcim.powerporttemplate' } },
  { template: 'dcim.interfacetemplate', component: 'dcim.interface', copy: ['type', 'enabled', 'mgmt_only', 'poe_mode', 'poe_type', 'rf_role'] },
  { template: 'dcim.rearporttemplate', component: 'dcim.rearport', copy: ['type', 'color', 'positions'] },
  { template: 'dcim.frontporttemplate', component: 'dcim.frontport', copy: ['type', 'color', 'rear_port_position'], refs: { rear_port: 'dcim.rearporttemplate' } },
  { template: 'dcim.modulebaytemplate', component: 'dcim.modulebay', copy: [] },
  { template: 'dcim.devicebaytemplate', component: 'dcim.devicebay', copy: [], deviceOnly: true },
  { template: 'dcim.inventoryitemtemplate', component: 'dcim.inventoryitem', copy: ['role', 'manufacturer', 'part_id'], deviceOnly: true },
];

/** What receives components: a new device (from its device type), or a new module (from its module type). */
export interface Owner {
  device: Row;
  module?: Row;
  /** A module's bay positions from the outermost module down to its own, replacing `{module}` in turn. */
  positions?: string[];
}

const MODULE_TOKEN = '{module}';

/** `Ethernet{module}/1` in the second of nested modules → `Ethernet2/1`: each token takes the next bay position. */
function resolve(text: string, positions: string[] | undefined): string {
  if (!positions || !text.includes(MODULE_TOKEN)) return text;
  return positions.reduce((out, position) => out.replace(MODULE_TOKEN, position), text);
}

/** The column a body key of `model` is stored in (`role` → `role_id`). */
function columnOf(model: Model, key: string): string {
  return model.field(key)!.columns()[0].name;
}

/**
 * Creates the components of new devices and modules from their types' templates, inside the same write: every
 * template of every owner is read in one statement, and each kind of component is created for all owners at
 * once (change-logged like every other write), so the cost does not grow with the number of templates or owners.
 * Components that refer to others (front ports to rear ports, outlets to power ports, bridges, nested inventory
 * items) are created after them and pointed at the new ones.
 */
export async function instantiateComponents(session: WriteSession, owners: Owner[]): Promise<void> {
  const { registry } = session;
  const byModule = owners.some((o) => o.module);
  const typeOf = (o: Owner) => (o.module ? (o.module.module_type_id as number) : (o.device.device_type_id as number));
  const kinds = KINDS.filter((k) => !(byModule && k.deviceOnly));
  const column = byModule ? 'module_type_id' : 'device_type_id';
  const types = [...new Set(owners.map(typeOf))];
  const parts = kinds.map((k, n) => `select ${n} as k, to_jsonb(t) as row from ${registry.get(k.template).table} t where ${column} = any(?)`);
  const { rows: loaded } = (await session.db.raw(`${parts.join(' union all ')} order by 1`, kinds.map(() => types))) as { rows: { k: number; row: Row }[] };
  if (!loaded.length) return;

  // Component ids by template and owner, for references between components.
  const made = new Map<string, number>();
  const key = (template: string, templateId: unknown, owner: number) => `${template}:${templateId}:${owner}`;

  for (const [n, kind] of kinds.entries()) {
    const templates = loaded.filter((l) => l.k === n).map((l) => l.row);
    if (!templates.length) continue;
    const templateModel = registry.get(kind.template);
    const component = registry.get(kind.component);
    const inventory = kind.component === 'dcim.inventoryitem';
    // Inventory items form a tree: each level is created once its parents exist.
    for (const level of inventory ? levels(templates) : [templates]) {
      const bodies: Record<string, unknown>[] = [];
      const origins: { template: Row; owner: number }[] = [];
      owners.forEach((owner, o) => {
        for (const template of level.filter((t) => t[column] === typeOf(owner))) {
          const body: Record<string, unknown> = {
            device: owner.device.id,
            name: resolve(String(template.name), owner.positions),
            label: resolve(String(template.label ?? ''), owner.positions),
            description: template.description,
          };
          if (!kind.deviceOnly) body.module = owner.module?.id ?? null;
          if (kind.component === 'dcim.modulebay') body.position = resolve(String(template.position ?? ''), owner.positions);
          for (const field of kind.copy) body[field] = template[columnOf(templateModel, field)];
          for (const [field, target] of Object.entries(kind.refs ?? {})) {
            const ref = template[columnOf(templateModel, field)];
            body[field] = ref === null || ref === undefined ? null : made.get(key(target, ref, o)) ?? null;
          }
          if (inventory) {
            body.parent = template.parent_id ? made.get(key(kind.template, template.parent_id, o)) ?? null : null;
            const target = template.component_type_id ? registry.objectTypes.keyOf(template.component_type_id as number) : undefined;
            const targetKind = KINDS.find((k) => k.template === target);
            const componentId = targetKind ? made.get(key(targetKind.template, template.component_id, o)) : undefined;
            if (targetKind && componentId) Object.assign(body, { component_type: targetKind.component, component_id: componentId });
          }
          bodies.push(body);
          origins.push({ template, owner: o });
        }
      });
      if (!bodies.length) continue;
      const created = await session.create(component, bodies, { internal: true });
      created.forEach((row, i) => made.set(key(kind.template, origins[i].template.id, origins[i].owner), row.id as number));
    }
  }

  // Bridges point at interfaces of the same owner, so they are set once all interfaces exist.
  const bridges = loaded.filter((l) => kinds[l.k].template === 'dcim.interfacetemplate' && l.row.bridge_id);
  const updates = owners.flatMap((owner, o) =>
    bridges
      .filter((b) => b.row[column] === typeOf(owner))
      .flatMap(({ row }) => {
        const id = made.get(key('dcim.interfacetemplate', row.id, o));
        const bridge = made.get(key('dcim.interfacetemplate', row.bridge_id, o));
        return id && bridge ? [{ id, body: { bridge } }] : [];
      }),
  );
  if (updates.length) await session.update(registry.get('dcim.interface'), updates, 'partial', { internal: true });
}

/** Templates of a tree, level by level from the roots. */
function levels(templates: Row[]): Row[][] {
  const out: Row[][] = [];
  let placed = new Set<unknown>([null, undefined]);
  let rest = templates;
  while (rest.length) {
    const level = rest.filter((t) => placed.has(t.parent_id));
    if (!level.length) break;
    out.push(level);
    placed = new Set([...placed, ...level.map((t) => t.id)]);
    rest = rest.filter((t) => !level.includes(t));
  }
  return out;
}
