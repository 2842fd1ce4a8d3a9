import { defineModel, f } from '../../../kernel/index.js';

/** What a cluster is (VMware vSphere, Proxmox…). */
export const ClusterType = defineModel('virtualization.clustertype', {
  path: 'cluster-types',
  verboseName: 'cluster type',
  fields: {
    name: f.string({ max: 100, unique: true }),
    slug: f.slug({ max: 100, unique: true }),
    description: f.string({ max: 200, blank: true }),
  },
  brief: ['name', 'slug', 'description', 'cluster_count'],
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
  features: ['tags', 'customFields', 'changelog', 'journal'],
});

/** A grouping of clusters (by region, by customer…). */
export const ClusterGroup = defineModel('virtualization.clustergroup', {
  path: 'cluster-groups',
  verboseName: 'cluster group',
  fields: {
    name: f.string({ max: 100, unique: true }),
    slug: f.slug({ max: 100, unique: true }),
    description: f.string({ max: 200, blank: true }),
  },
  brief: ['name', 'slug', 'description', 'cluster_count'],
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
  features: ['tags', 'customFields', 'changelog', 'journal', 'contacts'],
});
