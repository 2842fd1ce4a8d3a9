import type { DataAccess } from '../plugins/data.js';
import type { GraphRequest } from './batch.js';
import type { FilterInputs } from './filters.js';

/** What resolvers receive: the request's reader and the schema's filter compiler. */
export interface GraphContext {
  request: GraphRequest;
  filters: FilterInputs;
  /** The same reader as plugins' routes get (`ctx.as(req)`), for the fields plugins contribute. */
  data: DataAccess;
}
