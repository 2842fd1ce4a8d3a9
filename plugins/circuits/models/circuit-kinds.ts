import { defineModel, f } from 'patchbay';

/** Circuit types and virtual circuit types: a name, a slug and a color. */
const kind = (key: string, path: string, verboseName: string, count: string) =>
  defineModel(key, {
    path,
    verboseName,
    fields: {
      name: f.string({ max: 100, unique: true }),
      slug: f.slug({ max: 100, unique: true }),
      color: f.color({ blank: true }),
      description: f.string({ max: 200, blank: true }),
    },
    brief: ['name', 'slug', 'description', count],
    ordering: ['name'],
    search: ['name', 'slug', 'description'],
    features: ['tags', 'customFields', 'changelog', 'journal'],
  });

export const CircuitType = kind('circuits.circuittype', 'circuit-types', 'circuit type', 'circuit_count');
export const VirtualCircuitType = kind('circuits.virtualcircuittype', 'virtual-circuit-types', 'virtual circuit type', 'virtual_circuit_count');
