import { randomBytes } from 'node:crypto';
import {
  Field, ValidationError,
  type Column, type FieldRenderer, type ModelRegistry, type PropertyDescription, type RenderContext, type Row, type ValueSchema, type WriteValues,
} from '../../../kernel/index.js';

/** A stored upload, waiting to be claimed by the object being created from the same multipart request. */
interface Upload {
  path: string;
  width: number;
  height: number;
}

const pending = new Map<string, Upload>();

/** Registers a file the upload route stored; the returned ticket is what `image` is written as. */
export function ticketFor(upload: Upload): string {
  const ticket = `upload:${randomBytes(16).toString('hex')}`;
  pending.set(ticket, upload);
  return ticket;
}

export function dropTicket(ticket: string): void {
  pending.delete(ticket);
}

/**
 * `image`, `image_width`, `image_height`: the file is uploaded with multipart/form-data; JSON cannot name
 * a file (only a ticket the upload route issued for its own request), so no client can point an attachment
 * at another path.
 */
export class ImageField extends Field {
  constructor() {
    super({ label: 'Image' });
  }

  columns(): Column[] {
    return [
      { name: 'image', type: 'varchar(200)', nullable: false },
      { name: 'image_width', type: 'integer', nullable: false },
      { name: 'image_height', type: 'integer', nullable: false },
    ];
  }

  prepare(_rows: Row[], ctx: RenderContext): FieldRenderer {
    return (row, out) => {
      out.image = `${ctx.baseUrl}/media/${row.image as string}`;
      out.image_height = row.image_height as number;
      out.image_width = row.image_width as number;
    };
  }

  protected schema(): ValueSchema {
    return { type: 'string', format: 'image' };
  }

  /** The file, and its size read from it. */
  override describe(registry: ModelRegistry): PropertyDescription[] {
    const size = (key: string, label: string): PropertyDescription => ({ key, label, type: 'integer', readOnly: true, required: false, nullable: false });
    return [...super.describe(registry), size('image_height', 'Image height'), size('image_width', 'Image width')];
  }

  parse(body: Record<string, unknown>, _ctx: unknown, out: WriteValues): void {
    const upload = typeof body.image === 'string' ? pending.get(body.image) : undefined;
    if (!upload) throw ValidationError.of('image', 'Upload a valid image with multipart/form-data.');
    Object.assign(out.columns, { image: upload.path, image_width: upload.width, image_height: upload.height });
    out.values.image = upload.path;
  }

  override snapshot(): FieldRenderer {
    return (row, out) => {
      Object.assign(out, { image: row.image as string, image_width: row.image_width as number, image_height: row.image_height as number });
    };
  }
}
