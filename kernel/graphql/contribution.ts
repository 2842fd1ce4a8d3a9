import type { Model } from '../model/model.js';
import type { Row } from '../base/types.js';
import type { DataAccess } from '../plugins/data.js';
import type { FilterContribution } from './filters.js';

/** A field a plugin adds to a model's GraphQL type, resolved from the object's row as the requesting user. */
export interface GraphqlFieldContribution {
  model: Model;
  name: string;
  /** A GraphQL type expression: `Boolean!`, `[String!]`, a type of the schema or of the plugin's `typeDefs`. */
  type: string;
  description?: string;
  args?: Record<string, string>;
  resolve(row: Row, args: Record<string, unknown>, reader: DataAccess): unknown;
}

/**
 * What a plugin adds to the GraphQL schema beyond what its model declarations derive: type definitions (SDL),
 * fields on models' types and filters on models' filter inputs.
 */
export interface GraphqlContribution {
  typeDefs?: string;
  fields?: GraphqlFieldContribution[];
  filters?: FilterContribution[];
}
