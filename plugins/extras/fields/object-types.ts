import { f, type Field } from 'patchbay';

/** The `object_types` of export templates and event rules: a non-empty list of served models (`app.model`). */
export function objectTypesField(): Field {
  return f.list({
    sqlType: 'varchar(100)[]',
    nonEmpty: true,
    item: (value, registry) => {
      if (typeof value !== 'string' || !registry.find(value)?.served) throw `Invalid content type: ${String(value)}`;
      return value;
    },
  });
}
