import { ValidationError, defineModel, f, userRegex } from 'patchbay';
import { CustomFieldType, FilterLogic } from '../choices.js';

export const CustomFieldChoiceSet = defineModel('extras.customfieldchoiceset', {
  path: 'custom-field-choice-sets',
  verboseName: 'custom field choice set',
  fields: {
    name: f.string({ max: 100, unique: true }),
    description: f.string({ max: 200, blank: true }),
    extra_choices: f.json({ helpText: 'List of [value, label] pairs' }),
    order_alphabetically: f.boolean({ default: false }),
  },
  brief: ['name', 'description'],
  ordering: ['name'],
  search: ['name', 'description'],
  features: ['changelog'],
  validate: (row) => {
    const choices = typeof row.extra_choices === 'string' ? (JSON.parse(row.extra_choices) as unknown) : row.extra_choices;
    const pairs = Array.isArray(choices) && choices.every((c) => Array.isArray(c) && c.length === 2 && c.every((x) => typeof x === 'string'));
    if (!pairs || (choices as unknown[]).length === 0) throw new ValidationError({ extra_choices: ['Enter a list of [value, label] pairs.'] });
  },
});

export const CustomField = defineModel('extras.customfield', {
  path: 'custom-fields',
  verboseName: 'custom field',
  fields: {
    object_types: f.list({
      sqlType: 'varchar(100)[]',
      nonEmpty: true,
      item: (value, registry) => {
        if (typeof value !== 'string' || !registry.find(value)?.features.has('customFields')) throw `Invalid content type: ${String(value)}`;
        return value;
      },
    }),
    type: f.choice(CustomFieldType, { default: 'text' }),
    related_object_type: f.string({ max: 100, nullable: true }),
    name: f.string({ max: 50, unique: true }),
    label: f.string({ max: 50, blank: true }),
    group_name: f.string({ max: 50, blank: true, helpText: 'Custom fields within the same group will be displayed together' }),
    description: f.string({ max: 200, blank: true }),
    required: f.boolean({ default: false }),
    unique: f.boolean({ default: false }),
    default: f.json({ nullable: true }),
    weight: f.integer({ min: 0, max: 32767, default: 100 }),
    filter_logic: f.choice(FilterLogic, { default: 'loose' }),
    validation_minimum: f.decimal({ digits: 16, places: 4, nullable: true }),
    validation_maximum: f.decimal({ digits: 16, places: 4, nullable: true }),
    validation_regex: f.string({ max: 500, blank: true }),
    choice_set: f.fk('extras.customfieldchoiceset', { nullable: true, onDelete: 'protect', related: 'choices_for' }),
    comments: f.text({ blank: true }),
  },
  brief: ['name', 'description'],
  ordering: ['weight', 'name'],
  search: ['name', 'label', 'group_name', 'description', 'comments'],
  features: ['changelog'],
  validate: (row, ctx) => {
    if (typeof row.name === 'string' && !/^[a-z0-9_]+$/.test(row.name)) {
      throw new ValidationError({ name: ['Only alphanumeric characters and underscores are allowed.'] });
    }
    if (['select', 'multiselect'].includes(row.type as string) && !row.choice_set_id) {
      throw new ValidationError({ choice_set: ['Selection fields must specify a set of choices.'] });
    }
    if (['object', 'multiobject'].includes(row.type as string) && !ctx.registry.find(String(row.related_object_type))) {
      throw new ValidationError({ related_object_type: ['Object fields must define an object type.'] });
    }
    if (row.validation_regex) {
      try {
        userRegex(row.validation_regex as string);
      } catch (problem) {
        throw new ValidationError({ validation_regex: [String(problem)] });
      }
    }
  },
});
