import type { DataAccess, Model, Row } from 'patchbay';

/**
 * The object `id` of `model` if this reader may view it (their constraints applied), else undefined: to a reader
 * without the view permission a template does not exist, rather than being a 403 that confirms it does.
 */
export async function viewable(access: DataAccess, model: Model, id: number): Promise<Row | undefined> {
  return (await access.can(model, 'view')) ? access.get(model, id) : undefined;
}
