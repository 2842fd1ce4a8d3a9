import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { defineModel, f } from '../../../kernel/index.js';
import { ImageField } from '../fields/image.js';

export const ImageAttachment = defineModel('extras.imageattachment', {
  path: 'image-attachments',
  verboseName: 'image attachment',
  fields: {
    // Written as object_type and object_id; read nested under `parent`, as NetBox 4.4 does.
    object: f.generic({ feature: 'imageAttachments', readAs: 'parent' }),
    name: f.string({ max: 50, blank: true }),
    image: new ImageField(),
    description: f.string({ max: 200, blank: true }),
  },
  brief: ['name', 'image', 'description'],
  ordering: ['name', 'id'],
  search: ['name', 'description'],
  parent: 'object',
  display: (row) => String(row.name || String(row.image).split('/').pop()),
  features: ['changelog'],
  hooks: {
    // The files go once the deletion committed (a rolled-back delete keeps them).
    afterDelete(rows, session) {
      const root = session.settings.MEDIA_ROOT;
      session.afterCommit(async () => {
        for (const row of rows) await rm(resolve(root, row.image as string), { force: true });
      });
    },
  },
});
