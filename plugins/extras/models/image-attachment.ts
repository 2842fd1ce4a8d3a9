import { defineModel, f } from 'patchbay';

export const ImageAttachment = defineModel('extras.imageattachment', {
  path: 'image-attachments',
  verboseName: 'image attachment',
  fields: {
    // Written as object_type and object_id; read nested under `parent`, as NetBox 4.4 does.
    object: f.generic({ feature: 'imageAttachments', readAs: 'parent', related: 'image_attachments' }),
    name: f.string({ max: 50, blank: true }),
    image: f.image({ folder: 'image-attachments', dimensions: true }),
    description: f.string({ max: 200, blank: true }),
  },
  brief: ['name', 'image', 'description'],
  ordering: ['name', 'id'],
  search: ['name', 'image:icontains', 'description'],
  parent: 'object',
  display: (row) => String(row.name || String(row.image).split('/').pop()),
  features: ['changelog'],
});
