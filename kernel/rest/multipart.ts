import type { NextFunction, Request, Response } from 'express';
import multer from 'multer';
import { HttpError } from '../base/errors.js';
import type { Model } from '../model/model.js';
import { UploadedFile } from '../model/fields/image.js';
import { ValidationError } from '../base/types.js';

/**
 * Writes as multipart/form-data (how NetBox clients upload images): the form's text fields become the body, and
 * each file part the file field of its name. A file for any other name, or too large, is a 400 naming it.
 */
export function multipartBody(model: Model, limit: number) {
  const fileFields = new Set(model.fields.filter((f) => f.receivesFiles).map((f) => f.name));
  const parse = multer({ storage: multer.memoryStorage(), limits: { fileSize: limit, files: Math.max(fileFields.size, 1) } }).any();
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!['POST', 'PUT', 'PATCH'].includes(req.method) || !req.is('multipart/form-data')) return next();
    parse(req, res, (err: unknown) => {
      try {
        if (err instanceof multer.MulterError) {
          const field = err.field ?? 'non_field_errors';
          if (err.code === 'LIMIT_FILE_SIZE') throw new ValidationError({ [field]: [`The file is too large: at most ${limit} bytes.`] });
          if (err.code === 'LIMIT_FILE_COUNT' || err.code === 'LIMIT_UNEXPECTED_FILE') throw new ValidationError({ [field]: ['Unexpected file.'] });
          throw new HttpError(400, { detail: `Multipart form parse error - ${err.message}` });
        }
        if (err) throw new HttpError(400, { detail: `Multipart form parse error - ${(err as Error).message}` });
        const body: Record<string, unknown> = { ...(req.body as Record<string, unknown>) };
        for (const file of (req.files as Express.Multer.File[] | undefined) ?? []) {
          if (!fileFields.has(file.fieldname)) throw new ValidationError({ [file.fieldname]: ['Unexpected file.'] });
          body[file.fieldname] = new UploadedFile(file.buffer);
        }
        req.payload = body;
        next();
      } catch (failure) {
        next(failure);
      }
    });
  };
}
