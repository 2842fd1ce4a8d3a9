import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import multer from 'multer';
import { ItemErrors, ValidationError, send, type PluginContext } from '../../kernel/index.js';
import { dropTicket, ticketFor } from './fields/image.js';
import { imageSize } from './image-size.js';
import { ImageAttachment } from './models/image-attachment.js';

const FOLDER = 'image-attachments';

/**
 * POST /api/extras/image-attachments/ with multipart/form-data (`object_type`, `object_id`, `name`, `image`):
 * the file is checked, stored under MEDIA_ROOT and the attachment created like any other object; a failed
 * create leaves no file behind.
 */
export function uploadRoute(ctx: PluginContext) {
  const limit = ctx.settings.MAX_BODY_SIZE;
  const parse = multer({ storage: multer.memoryStorage(), limits: { fileSize: limit, files: 1 } }).single('image');
  return (req: Request, res: Response, next: NextFunction) => {
    if (!req.is('multipart/form-data')) return next();
    parse(req, res, async (err: unknown) => {
      try {
        if (err) {
          const code = (err as { code?: string }).code;
          throw new ValidationError({ image: [code === 'LIMIT_FILE_SIZE' ? `The file is too large: at most ${limit} bytes.` : (err as Error).message] });
        }
        const file = req.file;
        if (!file) throw new ValidationError({ image: ['No file was submitted.'] });
        const size = imageSize(file.buffer);
        if (!size) throw new ValidationError({ image: ['Upload a valid image. The file you uploaded was either not an image or a corrupted image.'] });
        const path = `${FOLDER}/${randomUUID()}.${size.ext}`;
        const full = resolve(ctx.settings.MEDIA_ROOT, path);
        await mkdir(join(ctx.settings.MEDIA_ROOT, FOLDER), { recursive: true });
        await writeFile(full, file.buffer);
        const ticket = ticketFor({ path, width: size.width, height: size.height });
        const body = { ...(req.body as Record<string, unknown>), image: ticket };
        try {
          const [created] = await ctx.as(req).write(async (s) => s.render(ImageAttachment, await s.create(ImageAttachment, [body])));
          send(req, res, 201, created);
        } catch (failure) {
          await rm(full, { force: true });
          throw failure instanceof ItemErrors ? failure.first() : failure;
        } finally {
          // The ticket serves this request only (a write run again after a conflict reads it again).
          dropTicket(ticket);
        }
      } catch (failure) {
        next(failure);
      }
    });
  };
}
