import { objectTypesField } from '../fields/object-types.js';
import { EVENT_TYPES, ValidationError, defineModel, f, type Json } from 'patchbay';
import { EventRuleAction } from '../choices.js';
import { compileConditions, hasConditions } from '../webhooks/conditions.js';

/** What to do (call a webhook) when objects of some types are created, updated or deleted, under conditions. */
export const EventRule = defineModel('extras.eventrule', {
  path: 'event-rules',
  verboseName: 'event rule',
  fields: {
    object_types: objectTypesField(),
    name: f.string({ max: 150, unique: true }),
    enabled: f.boolean({ default: true }),
    event_types: f.list({
      sqlType: 'varchar(50)[]',
      nonEmpty: true,
      helpText: 'The types of event which will trigger this rule.',
      item: (value) => {
        if (typeof value !== 'string' || !(EVENT_TYPES as readonly string[]).includes(value)) throw `"${String(value)}" is not a valid choice.`;
        return value;
      },
    }),
    conditions: f.json({ nullable: true, helpText: 'A set of conditions which determine whether the event will be generated.' }),
    action_type: f.choice(EventRuleAction, { default: 'webhook' }),
    action_object: f.generic({ models: ['extras.webhook'], related: 'events', union: 'EventRuleActionObjectType' }),
    action_data: f.json({ nullable: true, object: true, helpText: 'Parameters to pass to the action.' }),
    description: f.string({ max: 200, blank: true }),
  },
  brief: ['name', 'description'],
  ordering: ['name'],
  search: ['name', 'description'],
  features: ['tags', 'customFields', 'changelog'],
  validate: (row) => {
    if (row.action_type !== 'webhook') {
      throw ValidationError.of('action_type', `Patchbay runs webhook actions only; "${String(row.action_type)}" is not supported.`);
    }
    const conditions = (typeof row.conditions === 'string' ? JSON.parse(row.conditions) : row.conditions) as Json;
    if (!hasConditions(conditions)) return;
    try {
      compileConditions(conditions);
    } catch (problem) {
      throw ValidationError.of('conditions', (problem as Error).message);
    }
  },
});
