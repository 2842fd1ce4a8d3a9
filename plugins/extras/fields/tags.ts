import {
  ValidationError, appendTo, insertAll, isStoredId, relationCondition, whereIdIn, writeBehind,
  type Comparison, type Memo, type ModelRegistry, type Walk, type FieldRenderer, type Json, type JsonObject, type RenderContext, type Row, type StoreEntry, type ValueSchema, type WriteContext, type WriteScope, type WriteValues,
} from 'patchbay';
import { SideTableField } from './side-table.js';

export const TAGGED_ITEMS = 'extras_taggeditem';

/** A tag as a write reads it to validate it, with its rank by name among the tags of that read. */
interface ReadTag extends Row {
  id: number;
  name: string;
  weight: number;
  object_types: string[];
  by_name: number;
  /** Which read of the write found it: ranks compare within one read only. */
  read: number;
}

/** The tags a write read for its items, and how many reads it made. */
interface TagReads {
  reads: number;
  asked: Set<number>;
  rows: Map<number, ReadTag>;
}

/**
 * The tags each write has read, by id: its change records and its answer name and nest them from these rows. A
 * write stores no tags, and it names them as it validated them.
 */
const readTags = new WeakMap<Memo, TagReads>();

/** Tag `id`, read with every tag the write asked for so far (batched with the write's other items). */
function tagInScope(ctx: WriteContext, known: TagReads, id: number): Promise<ReadTag | undefined> {
  return ctx.batch('extras.tag-scope', id, async (ids: number[]) => {
    // A later read takes in the tags asked for before, so that the last ranks them all.
    const read = known.reads++;
    for (const i of ids) known.asked.add(i);
    const rows = (await ctx.db(ctx.registry.get('extras.tag').table).select('*', ctx.db.raw('row_number() over (order by name)::int as by_name')).whereIn('id', [...known.asked])) as ReadTag[];
    for (const row of rows) if ((known.rows.get(row.id)?.read ?? -1) < read) known.rows.set(row.id, { ...row, read });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((i) => byId.get(i));
  });
}

/** The rows of tags `ids` from one read of the write, when it read them all in one. */
function fromOneRead(memo: Memo, ids: number[]): ReadTag[] | undefined {
  const known = readTags.get(memo)?.rows;
  const rows = ids.map((id) => known?.get(id));
  if (rows.some((r) => r === undefined)) return undefined;
  const found = rows as ReadTag[];
  return found.every((r) => r.read === found[0]?.read) ? found : undefined;
}

/**
 * `tags` on every model declaring the feature: read as nested tags, written as ids or attribute objects
 * (`[]` clears, leaving the key out keeps them). Links live in one table for all models.
 */
export class TagsField extends SideTableField {
  constructor() {
    super('Tags');
  }

  /** Where a write remembers the tag ids it stored for object `id`. */
  private storedKey(id: number): string {
    return `extras.tags:${this.model.key}:${id}`;
  }

  async prepare(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const ids = rows.map((r) => r.id as number);
    const written = ids.map((id) => ctx.memo.recall<number[]>(this.storedKey(id)));
    const links = (written.every(Boolean)
      ? ids.flatMap((id, n) => written[n]!.map((tagId) => ({ object_id: id, tag_id: tagId })))
      : await ctx.db(TAGGED_ITEMS).select('object_id', 'tag_id').where('object_type_id', this.typeId(ctx.registry)).modify(whereIdIn, 'object_id', ids)) as {
      object_id: number;
      tag_id: number;
    }[];
    const tagModel = ctx.registry.get('extras.tag');
    const tagIds = [...new Set(links.map((l) => l.tag_id))];
    // Tags the write read render from their rows, in the tags' order (weight, name, id).
    const read = written.every(Boolean) ? fromOneRead(ctx.memo, tagIds) : undefined;
    const tags = read
      ? await ctx.registry.nestedOf(tagModel, read.sort((a, b) => a.weight - b.weight || a.by_name - b.by_name || a.id - b.id), ctx)
      : await ctx.registry.loadNested(tagModel, tagIds, ctx);
    const order = new Map([...tags.keys()].map((id, i) => [id, i]));
    const byObject = new Map<number, JsonObject[]>();
    for (const link of links.sort((a, b) => order.get(a.tag_id)! - order.get(b.tag_id)!)) {
      appendTo(byObject, link.object_id, tags.get(link.tag_id)!);
    }
    return (row, out) => {
      out.tags = byObject.get(row.id as number) ?? [];
    };
  }

  protected schema(): ValueSchema {
    return { type: 'array', relation: 'extras.tag', items: { type: 'object', relation: 'extras.tag' } };
  }

  /** A new object given no tags has none: stored as such, it is known to have none (nothing read back). */
  override createDefault(): Json {
    return [];
  }

  /** The tags of each object, related in SQL through the tagged items (GraphQL's `tags` with their own filters). */
  override walk(key: string, registry: ModelRegistry): Walk | undefined {
    if (key !== 'tags') return undefined;
    return {
      targets: ['extras.tag'],
      many: true,
      relate: (qb, alias, parent) => {
        qb.whereRaw(`??.id in (select tag_id from ${TAGGED_ITEMS} where object_type_id = ? and object_id = ${parent})`, [alias, this.typeId(registry)]);
      },
    };
  }

  /** `tags` compared as a relation: objects with tags matching a filter (`matches`), with any tag (`isnull`). */
  override condition(c: Comparison): void {
    const tagged = () => c.scope.db(TAGGED_ITEMS).select('object_id').where('object_type_id', this.typeId(c.scope.registry));
    relationCondition(c, c.scope.registry.get('extras.tag'), {
      isNull: (qb, alias, isNull) => {
        if (isNull) qb.whereNotIn(`${alias}.id`, tagged());
        else qb.whereIn(`${alias}.id`, tagged());
      },
      among: (qb, alias, ids) => {
        qb.whereIn(`${alias}.id`, tagged().whereIn('tag_id', ids));
      },
    });
  }

  parse(body: Record<string, unknown>, ctx: WriteContext, out: WriteValues): Promise<void> | void {
    const value = body.tags;
    if (!Array.isArray(value)) throw ValidationError.of('tags', 'Expected a list of items.');
    // No tags (the default of every object created without them) need no lookup.
    if (!value.length) {
      out.values.tags = [];
      return;
    }
    return this.parseTags(value, ctx, out);
  }

  private async parseTags(value: unknown[], ctx: WriteContext, out: WriteValues): Promise<void> {
    const tagModel = ctx.registry.get('extras.tag');
    // The tags of every item of the write, read once: a tag may be limited to some object types. A tag given by
    // id is found by that read; attributes, or an id it does not find (to word the error), resolve first.
    const known: TagReads = readTags.get(ctx.memo) ?? { reads: 0, asked: new Set<number>(), rows: new Map<number, ReadTag>() };
    readTags.set(ctx.memo, known);
    const found = await Promise.all(
      value.map(async (item) => {
        const id = typeof item === 'number' || (typeof item === 'string' && /^\d+$/.test(item)) ? Number(item) : undefined;
        const tag = id !== undefined && isStoredId(id) ? await tagInScope(ctx, known, id) : undefined;
        return tag ?? (await tagInScope(ctx, known, await ctx.resolve(tagModel, item, 'tags')))!;
      }),
    );
    const tags = [...new Map(found.map((t) => [t.id, t])).values()];
    const refused = tags.find((t) => t.object_types.length > 0 && !t.object_types.includes(this.model.key));
    if (refused) throw ValidationError.of('tags', `Tag "${refused.name}" cannot be applied to ${this.model.key} objects.`);
    out.values.tags = tags.map((t) => t.id);
  }

  override async store(entries: StoreEntry[], scope: WriteScope): Promise<void> {
    const typeId = this.typeId(scope.registry);
    if (scope.mode !== 'create') await scope.db(TAGGED_ITEMS).where('object_type_id', typeId).whereIn('object_id', entries.map((e) => e.id)).delete();
    const links = entries.flatMap((e) => (e.value as number[]).map((tagId) => ({ tag_id: tagId, object_type_id: typeId, object_id: e.id })));
    // Written behind, as the write remembers the links it stores.
    await writeBehind(scope.db, insertAll(scope.db, TAGGED_ITEMS, links));
    for (const e of entries) scope.memo.remember(this.storedKey(e.id), e.value);
  }

  /** The change log records tag names, as NetBox does. */
  override async snapshot(rows: Row[], ctx: RenderContext): Promise<FieldRenderer> {
    const ids = rows.map((r) => r.id as number);
    const written = ids.map((id) => ctx.memo.recall<number[]>(this.storedKey(id)));
    let links: { object_id: number; name: string }[];
    if (written.every(Boolean)) {
      // Ordered by name as PostgreSQL orders them.
      const tagIds = [...new Set(written.flat() as number[])];
      const read = fromOneRead(ctx.memo, tagIds)?.sort((a, b) => a.by_name - b.by_name);
      const tags = read ?? (tagIds.length ? ((await ctx.db('extras_tag').select('id', 'name').whereIn('id', tagIds).orderBy('name')) as { id: number; name: string }[]) : []);
      const rank = new Map(tags.map((t, i) => [t.id, i]));
      links = ids.flatMap((id, n) => [...written[n]!].sort((a, b) => rank.get(a)! - rank.get(b)!).map((tagId) => ({ object_id: id, name: tags[rank.get(tagId)!].name })));
    } else {
      links = (await ctx.db(`${TAGGED_ITEMS} as ti`)
        .join('extras_tag as t', 't.id', 'ti.tag_id')
        .where('ti.object_type_id', this.typeId(ctx.registry))
        .whereIn('ti.object_id', ids)
        .orderBy('t.name')
        .select('ti.object_id', 't.name')) as { object_id: number; name: string }[];
    }
    const names = new Map<number, string[]>();
    for (const link of links) appendTo(names, link.object_id, link.name);
    return (row, out) => {
      out.tags = names.get(row.id as number) ?? [];
    };
  }

  override async cleanup(ids: number[], ctx: RenderContext): Promise<void> {
    await ctx.db(TAGGED_ITEMS).where('object_type_id', this.typeId(ctx.registry)).whereIn('object_id', ids).delete();
  }
}
