import { defineModel, f } from 'patchbay';

/** Cluster types and groups: a name, a slug and a description, counting their clusters. */
const kind = (key: string, path: string, verboseName: string, features: string[]) =>
  defineModel(key, {
    path,
    verboseName,
    fields: {
      name: f.string({ max: 100, unique: true }),
      slug: f.slug({ max: 100, unique: true }),
      description: f.string({ max: 200, blank: true }),
    },
    brief: ['name', 'slug', 'description', 'cluster_count'],
    ordering: ['name'],
    search: ['name', 'slug', 'description'],
    features: ['tags', 'customFields', 'changelog', 'journal', ...features],
  });

/** What a cluster is (VMware vSphere, Proxmox…). */
export const ClusterType = kind('virtualization.clustertype', 'cluster-types', 'cluster type', []);
/** A grouping of clusters (by region, by customer…), with contacts. */
export const ClusterGroup = kind('virtualization.clustergroup', 'cluster-groups', 'cluster group', ['contacts']);
