import { defineModel, f, not, parseWholeNumber } from 'patchbay';
import { VirtualDeviceContextStatus } from '../choices/index.js';
import { idIn } from '../rules/related-rows.js';

export const VirtualDeviceContext = defineModel('dcim.virtualdevicecontext', {
  path: 'virtual-device-contexts',
  verboseName: 'virtual device context',
  fields: {
    name: f.string({ max: 64 }),
    device: f.fk('dcim.device', { onDelete: 'protect', related: 'vdcs' }),
    identifier: f.integer({ min: 0, max: 32767, nullable: true }),
    tenant: f.fk('tenancy.tenant', { nullable: true, onDelete: 'protect', related: 'vdcs' }),
    status: f.choice(VirtualDeviceContextStatus),
    description: f.string({ max: 200, blank: true }),
    comments: f.text({ blank: true }),
  },
  unique: [{ fields: ['device', 'identifier'] }, { fields: ['device', 'name'] }],
  brief: ['name', 'identifier', 'device', 'description'],
  ordering: ['name'],
  search: ['name', 'description', 'identifier'],
  features: ['tags', 'customFields', 'changelog', 'journal'],
  filters: {
    // Contexts holding any of these interfaces (the interfaces' `vdcs`).
    interface_id: {
      suffixes: ['n'],
      build: (suffix, values) => {
        const ids = values.map(parseWholeNumber);
        const node = idIn((db) => db('dcim_interface_vdcs').select('virtualdevicecontext_id').whereIn('interface_id', ids));
        return suffix === 'n' ? not(node) : node;
      },
    },
  },
});
