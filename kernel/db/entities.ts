import { EntitySchema, type EntitySchemaMetadata } from '@mikro-orm/core';
import type { Column, ExpressionIndex, Field } from '../model/field.js';
import { searchTerms } from '../model/search.js';
import { TEXT_LOOKUPS } from '../filters/lookups.js';
import { appendTo } from '../base/collections.js';
import type { Model } from '../model/model.js';
import type { ModelRegistry } from '../model/registry.js';

type Properties = NonNullable<EntitySchemaMetadata<Record<string, unknown>>['properties']>;
type Property = Properties[string];

/** The kernel's table of model ids for generic relations. */
export const objectTypeEntity = new EntitySchema<{ id: number; app_label: string; model: string }>({
  name: 'core_objecttype',
  tableName: 'core_objecttype',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    app_label: { type: 'string', columnType: 'varchar(100)' },
    model: { type: 'string', columnType: 'varchar(100)' },
  },
  uniques: [{ name: 'core_objecttype_app_label_model_key', properties: ['app_label', 'model'] }],
});

const entityName = (key: string) => key.replace('.', '_');

function scalarProperty(col: Column): Property {
  return {
    type: col.type === 'boolean' ? 'boolean' : col.type === 'integer' ? 'integer' : 'string',
    columnType: col.type,
    nullable: col.nullable,
    fieldName: col.name,
    ...(col.default !== undefined ? { default: col.default } : {}),
    ...(col.defaultRaw ? { defaultRaw: col.defaultRaw } : {}),
    ...(col.index ? { index: true } : {}),
  };
}

/**
 * An index in the model's default ordering, then `id` (which ends every ordering), so that a page of its list reads
 * the index up to its limit instead of sorting the table: at 101,000 tenants an unfiltered page of 50 took 4.5 ms of
 * PostgreSQL CPU instead of 17.5. None when the ordering reaches other tables or an index already leads with it.
 */
function orderingIndex(model: Model, registry: ModelRegistry, leading: string[][]): ExpressionIndex | undefined {
  const keys: { column: string; desc: boolean; nullsFirst?: boolean }[] = [];
  for (const term of model.ordering) {
    const field = registry.fieldOf(model, term.replace(/^-/, ''));
    const column = field?.orderColumn();
    if (!column) return undefined;
    keys.push({ column, desc: term.startsWith('-'), nullsFirst: field!.orderNullsFirst() });
  }
  const own = keys.map((k) => k.column).filter((c) => c !== 'id');
  if (!own.length || leading.some((columns) => own.every((c, i) => columns[i] === c))) return undefined;
  if (keys.at(-1)?.column !== 'id') keys.push({ column: 'id', desc: false });
  const name = `${model.table}_ordering`.slice(0, 63);
  // As the ordering sorts (a relation's rows without one first, ascending): `asc nulls first` or `desc nulls last`.
  const columns = keys.map((k) => `"${k.column}"${k.desc ? ' desc' : ''}${k.nullsFirst ? (k.desc ? ' nulls last' : ' nulls first') : ''}`).join(', ');
  return { name, expression: `create index "${name}" on "${model.table}" (${columns})` };
}

/**
 * The index of a foreign key, for its joins and the referenced row's deletes. A nullable key's leaves out its nulls
 * (`where … is not null`, which every lookup by value implies): most rows of a table such as interfaces have no LAG,
 * parent, VRF or VLAN, and an insert of such a row skips those indexes; 9 of an interface's 16 indexes were on keys
 * nearly always null.
 */
function foreignKeyIndex(model: Model, col: Column): { name: string; expression: string } {
  const name = `${model.table}_${col.name}_idx`;
  return { name, expression: `create index "${name}" on "${model.table}" ("${col.name}")${col.nullable ? ` where "${col.name}" is not null` : ''}` };
}

/** Derives the MikroORM entity schema of a model from its declaration (used for schema diffs and migrations). */
export function entityOf(model: Model, registry: ModelRegistry): EntitySchema {
  const properties: Properties = {};
  const indexes: ({ properties: string[]; name: string } | { name: string; expression: string })[] = [];
  const propertyByColumn = new Map<string, string>();
  // The columns that plain indexes lead with (foreign keys, generated keys, unconditional uniques).
  const leading: string[][] = [];
  // A foreign key that leads an unconditional unique needs no index of its own: the unique's serves its lookups.
  const uniqueLeads = new Set(model.unique.filter((u) => !u.whenNull && !u.whenSet && !u.lower).map((u) => model.field(u.fields[0])!.columns()[0].name));
  // Fields plugins add have their columns here too (a device's primary IPs, added by ipam).
  for (const field of [...model.fields, ...registry.contributedFields(model)]) {
    for (const join of field.joinTables()) {
      properties[field.name] = {
        kind: 'm:n',
        entity: () => entityName(join.targetModel),
        pivotTable: join.table,
        joinColumn: join.source,
        inverseJoinColumn: join.target,
        owner: true,
      } as Property;
    }
    for (const col of field.columns()) {
      if (col.type === 'serial') {
        properties.id = { type: 'integer', primary: true, autoincrement: true } as Property;
      } else if (col.references) {
        const name = col.name.replace(/_id$/, '');
        propertyByColumn.set(col.name, name);
        properties[name] = {
          kind: 'm:1',
          entity: () => entityName(col.references!.model),
          fieldName: col.name,
          nullable: col.nullable,
          deleteRule: col.references.onDelete === 'restrict' ? 'no action' : col.references.onDelete,
          updateRule: 'cascade',
          createForeignKeyConstraint: col.references.constraint !== false,
        } as Property;
        if (!uniqueLeads.has(col.name)) indexes.push(foreignKeyIndex(model, col));
        leading.push([col.name]);
      } else {
        properties[col.name] = scalarProperty(col);
      }
    }
    indexes.push(...field.indexes());
    for (const col of field.generatedColumns()) {
      properties[col.name] = { type: 'string', columnType: col.type, fieldName: col.name, nullable: true, generated: `(${col.expression}) stored`, index: `${model.table}_${col.name}_idx` } as Property;
      leading.push([col.name]);
    }
  }
  indexes.push(...searchIndexes(model, registry));
  const uniques = model.unique.map((u, i) => {
    const columns = u.fields.flatMap((n) => model.field(n)!.columns().map((c) => c.name));
    const name = `${model.table}_${columns.join('_')}${u.whenNull ? '_null' : ''}${u.whenSet ? '_set' : ''}_uniq${i}`.slice(0, 63);
    if (!u.whenNull && !u.whenSet && !u.lower) {
      leading.push(columns);
      return { name, properties: columns.map((c) => propertyByColumn.get(c) ?? c) };
    }
    const lower = new Set((u.lower ?? []).flatMap((n) => model.field(n)!.columns().map((c) => c.name)));
    const keys = columns.map((c) => (lower.has(c) ? `lower("${c}")` : `"${c}"`)).join(', ');
    const where = [
      ...(u.whenNull ?? []).flatMap((n) => model.field(n)!.columns().map((c) => `"${c.name}" is null`)),
      ...(u.whenSet ?? []).flatMap((n) => model.field(n)!.columns().map((c) => `"${c.name}" <> ''`)),
    ].join(' and ');
    return { name, expression: `create unique index "${name}" on "${model.table}" (${keys})${where ? ` where ${where}` : ''}` };
  });
  const ordering = orderingIndex(model, registry, leading);
  if (ordering) indexes.push(ordering);
  return new EntitySchema({ name: entityName(model.key), tableName: model.table, properties, indexes, uniques });
}

/** The kernel's pattern lookups a trigram index serves (`??::text like/ilike <pattern>`). */
const TRIGRAM_LOOKUPS = ['contains', 'icontains', 'startswith', 'istartswith', 'endswith', 'iendswith'];

/** Each model's fields that some search term compares by a trigram lookup, worked out once per registry. */
const searched = new WeakMap<ModelRegistry, Map<Model, Field[]>>();
function patternSearched(registry: ModelRegistry): Map<Model, Field[]> {
  let byModel = searched.get(registry);
  if (!byModel) {
    byModel = new Map();
    for (const { field, lookup } of registry.all().flatMap((m) => searchTerms(m, registry))) {
      if (!TRIGRAM_LOOKUPS.includes(lookup) || field.lookups()[lookup] !== TEXT_LOOKUPS[lookup]) continue;
      if (!byModel.get(field.model)?.includes(field)) appendTo(byModel, field.model, field);
    }
    searched.set(registry, byModel);
  }
  return byModel;
}

/**
 * `?q=` answers each search term through an index (its terms' ids are united): a trigram index on each field of this
 * model that a term compares by pattern, the model's own terms and other models' across a relation (a device's
 * `primary_ip4__address:startswith` indexes the addresses' text).
 */
function searchIndexes(model: Model, registry: ModelRegistry): ExpressionIndex[] {
  return (patternSearched(registry).get(model) ?? []).flatMap((field) => {
    const expression = field.trigramExpression();
    if (!expression) return [];
    const name = `${model.table}_${field.name}_trgm`;
    return [{ name, expression: `create index "${name}" on "${model.table}" using gin (${expression} gin_trgm_ops)` }];
  });
}
