import { defineModel, f, parseWholeNumber, type QueryFilter, type Row } from 'patchbay';
import { ServiceProtocol } from '../choices.js';
import { negatable, pointingAt } from '../rules/assignment-filters.js';

/** A TCP, UDP or SCTP port. */
function port(value: unknown): number {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 65535) throw 'Ensure each port is a whole number between 1 and 65535.';
  return n;
}

/** `22, 80-81, 443`: ports as NetBox shows them, runs of consecutive ports joined. */
export function portsText(ports: number[]): string {
  const sorted = [...ports].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    runs.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return runs.join(', ');
}

const display = (row: Row) => `${row.name} (${ServiceProtocol.label(row.protocol as string)}/${portsText(row.ports as number[])})`;

const common = () => ({
  protocol: f.choice(ServiceProtocol),
  ports: f.list({ sqlType: 'integer[]', item: port, itemType: 'integer', nonEmpty: true, filter: 'port' }),
});

export const ServiceTemplate = defineModel('ipam.servicetemplate', {
  path: 'service-templates',
  verboseName: 'service template',
  fields: {
    name: f.string({ max: 100, unique: true }),
    ...common(),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  brief: ['name', 'protocol', 'ports', 'description'],
  display,
  displayUses: ['name', 'protocol', 'ports'],
  ordering: ['name'],
  search: ['name', 'description'],
  features: ['tags', 'customFields', 'changelog', 'journal'],
});

/** Services whose parent is an object of `model` (in `table`) with `column` among the values. */
const parentIs = (model: string, table: string, column: 'id' | 'name'): QueryFilter =>
  negatable((values) => {
    const keys = column === 'id' ? values.map(parseWholeNumber) : values;
    return pointingAt('parent_object', model, (db) => db(table).select('id').whereIn(column, keys));
  });

export const Service = defineModel('ipam.service', {
  path: 'services',
  fields: {
    parent_object: f.generic({ models: ['dcim.device', 'virtualization.virtualmachine', 'ipam.fhrpgroup'], readAs: 'parent', related: 'services' }),
    name: f.string({ max: 100 }),
    ...common(),
    ipaddresses: f.m2m('ipam.ipaddress', { filterName: 'ip_address', filterBy: 'address', label: 'IP addresses', related: 'services' }),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  brief: ['name', 'protocol', 'ports', 'description'],
  display,
  displayUses: ['name', 'protocol', 'ports'],
  ordering: ['protocol', 'ports', 'id'],
  search: ['name', 'description'],
  parent: 'parent_object',
  filters: {
    device: parentIs('dcim.device', 'dcim_device', 'name'),
    device_id: parentIs('dcim.device', 'dcim_device', 'id'),
    fhrpgroup: parentIs('ipam.fhrpgroup', 'ipam_fhrpgroup', 'name'),
    fhrpgroup_id: parentIs('ipam.fhrpgroup', 'ipam_fhrpgroup', 'id'),
  },
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts'],
});
