import type { Knex } from '@mikro-orm/knex';
import type { FieldNode, FragmentDefinitionNode } from 'graphql';
import type { Model } from '../model/model.js';
import { orderingWithin, type Relate } from '../model/walk.js';
import type { Reader } from '../read/reader.js';
import { columnParsers } from '../read/column-parsers.js';
import type { Gate } from '../write/gate.js';
import type { GraphContext } from './context.js';
import type { ListQuery } from './batch.js';

/**
 * A list field of a root list's objects read in the root list's own statement (a round trip fewer: each statement
 * wakes a PostgreSQL backend): each object's rows as one JSON array, their values as PostgreSQL's text, read back
 * with the parsers node-postgres gives their columns' types, so the rows are those a statement of their own reads.
 */
export interface InlineList {
  /** The query's field it answers (its first node): what the root batch keeps its load under. */
  signature: FieldNode;
  target: Model;
  /** How the rows relate to the root's objects: through a column holding the object's id (`via`). */
  relate: Relate;
  query: ListQuery;
  columns: string[];
}

/** What a list field offers to be read inline: its list, or undefined (read in a statement of its own). */
export type Inline = (args: Record<string, unknown>, ctx: GraphContext, nodes: readonly FieldNode[], fragments: Record<string, FragmentDefinitionNode>) => Promise<InlineList | undefined>;

/** The column selecting `inline`'s rows of each root object (`p.id`), and how to read them back into rows. */
export async function inlineColumn(reads: Reader, gate: Gate, inline: InlineList, name: string): Promise<{ column: Knex.Raw; rows: (json: unknown) => Record<string, unknown>[] }> {
  const { target, relate, query, columns } = inline;
  const [{ qb }, parsers] = await Promise.all([reads.visible(target, gate, query.where, columns), columnParsers(reads, target.table)]);
  relate(qb, 't', 'p.id');
  reads.arrange(qb, target, { ...query, ordering: orderingWithin(target, relate) });
  const parse = columns.map((c) => parsers.get(c) ?? String);
  const texts = columns.map(() => '??::text').join(', ');
  // A plain aggregate over the ordered subquery keeps its order.
  const column = reads.db.raw(`(select coalesce(json_agg(json_build_array(${texts})), '[]') from ? as x) as ??`, [...columns.map((c) => `x.${c}`), qb, name]);
  return {
    column,
    rows: (json) =>
      (json as (string | null)[][]).map((values) => {
        const row: Record<string, unknown> = {};
        for (let i = 0; i < columns.length; i++) row[columns[i]] = values[i] === null ? null : parse[i](values[i]!);
        return row;
      }),
  };
}
