import type { ModelRegistry, Row } from 'patchbay';

/** Where a cluster is, from its scope (NetBox's cached `_site` and `_location`): none for a region or site group. */
export interface ClusterPlace {
  site: number | null;
  location: number | null;
}

/** Loads stored rows of a model by id (a write's `stored`). */
type Stored = (model: ReturnType<ModelRegistry['get']>, id: number) => Promise<Row | undefined>;

/** The site and location a cluster row's scope puts it in. */
export async function placeOf(cluster: Row, registry: ModelRegistry, stored: Stored): Promise<ClusterPlace> {
  const type = registry.objectTypes.keyOf(cluster.scope_type_id as number);
  const id = cluster.scope_id as number | null;
  if (type === 'dcim.site') return { site: id, location: null };
  if (type === 'dcim.location' && id !== null) {
    const location = await stored(registry.get('dcim.location'), id);
    return { site: (location?.site_id as number | undefined) ?? null, location: id };
  }
  return { site: null, location: null };
}
