import { appendTo, defineModel, f, loadDisplays, type RenderContext, type Row } from 'patchbay';
import { ContactPriority } from '../choices.js';

/** "Jane Doe (Primary) -> Acme", as NetBox displays an assignment. */
async function assignmentDisplays(rows: Row[], ctx: RenderContext): Promise<Map<number, string>> {
  const { registry } = ctx;
  const contacts = await loadDisplays(registry.get('tenancy.contact'), rows.map((r) => r.contact_id as number), ctx);
  const objects = new Map<string, string>();
  const byType = new Map<number, Row[]>();
  for (const row of rows) appendTo(byType, row.object_type_id as number, row);
  for (const [typeId, typed] of byType) {
    const model = registry.find(registry.objectTypes.keyOf(typeId) ?? '');
    if (!model) continue;
    const shown = await loadDisplays(model, typed.map((r) => r.object_id as number), ctx);
    for (const [id, text] of shown) objects.set(`${typeId}:${id}`, text);
  }
  return new Map(
    rows.map((r) => {
      const contact = contacts.get(r.contact_id as number) ?? '';
      const object = objects.get(`${r.object_type_id}:${r.object_id}`) ?? '';
      const priority = r.priority ? ` (${ContactPriority.label(r.priority as string)})` : '';
      return [r.id as number, `${contact}${priority} -> ${object}`];
    }),
  );
}

export const ContactAssignment = defineModel('tenancy.contactassignment', {
  path: 'contact-assignments',
  verboseName: 'contact assignment',
  fields: {
    object: f.generic({ feature: 'contacts', related: 'contacts' }),
    contact: f.fk('tenancy.contact', { onDelete: 'cascade', related: 'assignments' }),
    role: f.fk('tenancy.contactrole', { nullable: true, onDelete: 'protect', related: 'assignments' }),
    priority: f.choice(ContactPriority, { blank: true }),
  },
  unique: [{ fields: ['object', 'contact', 'role'], message: 'Contact assignment with this Object type, Object id, Contact and Role already exists.' }],
  brief: ['contact', 'role', 'priority'],
  ordering: ['contact', 'priority', 'role', 'id'],
  search: ['contact', 'role'],
  relatedFilters: { group: 'contact__groups' },
  displayLoader: assignmentDisplays,
  displayUses: ['contact', 'object', 'priority'],
  parent: 'object',
  features: ['tags', 'customFields', 'changelog', 'journal', 'imageAttachments'],
});
