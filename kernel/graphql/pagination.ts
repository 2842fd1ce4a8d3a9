import { GraphQLError } from 'graphql';
import type { Settings } from '../config/settings.js';
import { maxPageSize } from '../config/load.js';
import { INT_MAX } from '../base/values.js';
import type { ListQuery } from './batch.js';

/** A list's `pagination` argument (`OffsetPaginationInput`). */
export interface Pagination {
  offset?: number | null;
  limit?: number | null;
  start?: number | null;
}

/** A list's arguments. */
export interface ListArgs {
  filters?: unknown;
  pagination?: Pagination;
}

/** The pagination input every list takes: NetBox's offset and limit, and NetBox 4.5's cursor. */
export const PAGINATION_INPUT = {
  name: 'OffsetPaginationInput',
  fields: { offset: { type: 'Int', defaultValue: 0 }, limit: 'Int', start: { type: 'Int', description: 'Cursor: the objects from this id on, by id.' } },
};

/**
 * A list's page: without `pagination`, every row up to MAX_PAGE_SIZE (NetBox 4.5); with it, `limit` defaults to
 * 100, and `start` pages by id from there on (not with `offset`).
 */
export function pageOf(pagination: Pagination | null | undefined, settings: Settings): Omit<ListQuery, 'where'> {
  const max = maxPageSize(settings);
  if (!pagination) return { limit: max };
  const { offset, limit, start } = pagination;
  for (const [name, value] of Object.entries({ offset, limit, start })) {
    if (value !== null && value !== undefined && (value < 0 || value > INT_MAX)) throw new GraphQLError(`pagination.${name}: must be a whole number from 0 to ${INT_MAX}.`);
  }
  if (start !== null && start !== undefined && offset) throw new GraphQLError('pagination: start (cursor) cannot be combined with offset.');
  const wanted = limit ?? 100;
  return {
    limit: max === null ? wanted : Math.min(wanted, max),
    offset: offset ?? 0,
    start: start ?? undefined,
  };
}
