import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { lastValue, type QueryFilter } from '../../filters/builders.js';
import { parseBoolean } from '../../filters/values.js';
import { EQUALITY_LOOKUPS, TEXT_LOOKUPS, type Lookups } from '../../filters/lookups.js';
import type { WriteContext, WriteScope } from '../../write/context.js';
import type { ValueSchema, PropertyDescription } from '../description.js';
import { Field, humanise, type CleanupContext, type Column, type CommonOptions, type StoreEntry, type WriteValues } from '../field.js';
import type { ModelRegistry } from '../registry.js';
import { ValidationError, type FieldRenderer, type RenderContext, type Row } from '../../base/types.js';
import { imageSize } from './image-size.js';

/**
 * A file part of a multipart/form-data request. Only the multipart parser makes these: a JSON body cannot, so no
 * client can point a stored path at a file of its choosing.
 */
export class UploadedFile {
  constructor(readonly data: Buffer) {}
}

export interface ImageOptions extends CommonOptions {
  /** The folder under MEDIA_ROOT the files go to (`devicetype-images`). */
  folder: string;
  /** Also keep and read `<name>_width` and `<name>_height` (image attachments). */
  dimensions?: boolean;
}

/** What a written image becomes: a new file to store, or none; and the file it replaces. */
interface ImageChange {
  path: string | null;
  data?: Buffer;
  previous: string | null;
}

/**
 * An uploaded image: stored under MEDIA_ROOT, read as its URL (or null). Written with multipart/form-data; null
 * (or '') clears a nullable one. The file is written inside the write and removed if it rolls back; a replaced,
 * cleared or deleted object's file goes once the change has committed.
 */
export class ImageField extends Field<ImageOptions> {
  override get receivesFiles(): boolean {
    return true;
  }

  override get requiredMessage(): string {
    return 'No file was submitted.';
  }

  /** In NetBox's order: height, then width. */
  private get sizeColumns(): string[] {
    return this.options.dimensions ? [`${this.name}_height`, `${this.name}_width`] : [];
  }

  columns(): Column[] {
    return [
      { name: this.name, type: 'varchar(100)', nullable: this.nullable },
      ...this.sizeColumns.map((name) => ({ name, type: 'integer', nullable: this.nullable })),
    ];
  }

  protected schema(): ValueSchema {
    return { type: 'string', format: 'image' };
  }

  /** The stored path compares as text (NetBox's image attachments are searched by it). */
  override lookups(): Lookups {
    return { ...EQUALITY_LOOKUPS, ...TEXT_LOOKUPS };
  }

  override describe(registry: ModelRegistry): PropertyDescription[] {
    const size = (key: string): PropertyDescription => ({ key, label: humanise(key), type: 'integer', readOnly: true, required: false, nullable: this.nullable });
    return [...super.describe(registry), ...this.sizeColumns.map(size)];
  }

  prepare(_rows: Row[], ctx: RenderContext): FieldRenderer {
    const { name } = this;
    const sizes = this.sizeColumns;
    return (row, out) => {
      const path = row[name] as string | null;
      out[name] = path ? `${ctx.baseUrl}/media/${path}` : null;
      for (const key of sizes) out[key] = (row[key] as number | null) ?? null;
    };
  }

  parse(body: Record<string, unknown>, ctx: WriteContext, out: WriteValues): void {
    const value = body[this.name];
    const previous = (ctx.instance?.[this.name] as string | null | undefined) ?? null;
    const [height, width] = this.sizeColumns;
    if (value === null || value === '') {
      if (!this.nullable) throw ValidationError.of(this.name, 'This field may not be null.');
      out.columns[this.name] = null;
      if (height) out.columns[height] = out.columns[width] = null;
      out.values[this.name] = { path: null, previous } satisfies ImageChange;
      return;
    }
    if (!(value instanceof UploadedFile)) throw ValidationError.of(this.name, 'Upload a valid image with multipart/form-data.');
    const size = imageSize(value.data);
    if (!size) throw ValidationError.of(this.name, 'Upload a valid image. The file you uploaded was either not an image or a corrupted image.');
    const path = `${this.options.folder}/${randomUUID()}.${size.ext}`;
    out.columns[this.name] = path;
    if (height) Object.assign(out.columns, { [height]: size.height, [width]: size.width });
    out.values[this.name] = { path, data: value.data, previous } satisfies ImageChange;
  }

  /** Writes the new files (removed again if the write rolls back) and, once committed, removes the replaced ones. */
  override async store(entries: StoreEntry[], scope: WriteScope): Promise<void> {
    const root = scope.settings.MEDIA_ROOT;
    for (const { value } of entries) {
      const change = value as ImageChange;
      if (change.path && change.data) {
        const file = resolve(root, change.path);
        await mkdir(dirname(file), { recursive: true });
        scope.onRollback(() => rm(file, { force: true }));
        await writeFile(file, change.data);
      }
      if (change.previous && change.previous !== change.path) scope.afterCommit(() => rm(resolve(root, change.previous!), { force: true }));
    }
  }

  override async cleanup(ids: number[], ctx: CleanupContext): Promise<void> {
    const rows = (await ctx.db(this.model.table).select(this.name).whereIn('id', ids).whereNotNull(this.name)) as Row[];
    const root = ctx.settings.MEDIA_ROOT;
    for (const row of rows) ctx.afterCommit(() => rm(resolve(root, row[this.name] as string), { force: true }));
  }

  /** `?has_<name>=true|false` on an optional image (NetBox's `has_front_image`). */
  override filters(): Record<string, QueryFilter> {
    if (!this.nullable) return {};
    const { name } = this;
    return {
      [`has_${name}`]: {
        suffixes: [],
        build: (_s, values) => {
          const has = parseBoolean(lastValue(values));
          return { op: 'sql', condition: (qb, alias) => void (has ? qb.whereNotNull(`${alias}.${name}`) : qb.whereNull(`${alias}.${name}`)) };
        },
      },
    };
  }

  override snapshot(): FieldRenderer {
    const columns = this.columns().map((c) => c.name);
    return (row, out) => {
      for (const column of columns) out[column] = (row[column] as string | number | null) ?? null;
    };
  }
}
