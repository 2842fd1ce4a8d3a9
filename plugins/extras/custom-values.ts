import { appendTo, ValidationError, parseDate, parseDateTime, userRegex, type Db, type Memo, type ModelRegistry, type PluginContext, type WriteScope } from 'patchbay';

/** A custom field definition as stored. */
export interface CustomFieldDef {
  id: number;
  name: string;
  type: string;
  related_object_type: string | null;
  required: boolean;
  unique: boolean;
  default: unknown;
  filter_logic: string;
  validation_minimum: string | null;
  validation_maximum: string | null;
  validation_regex: string;
  choice_set_id: number | null;
  choices?: string[];
}

/**
 * Every model's definitions, kept by each server (known by its registry): read at start and again, before the write's
 * response, whenever a custom field or choice set changes (this process's writes, and other processes' through the
 * model watch). Read from committed data (the server's own connection), never from a transaction that may roll back.
 */
const kept = new WeakMap<ModelRegistry, Map<string, CustomFieldDef[]>>();

/** Reads every custom field and the values of their choice sets, by model. */
async function loadDefinitions(db: Db): Promise<Map<string, CustomFieldDef[]>> {
  const defs = (await db('extras_customfield').orderBy(['weight', 'name'])) as (CustomFieldDef & { object_types: string[] })[];
  const setIds = defs.flatMap((d) => (d.choice_set_id ? [d.choice_set_id] : []));
  if (setIds.length) {
    const sets = (await db('extras_customfieldchoiceset').whereIn('id', setIds).select('id', 'extra_choices')) as { id: number; extra_choices: [string, string][] }[];
    for (const def of defs) def.choices = sets.find((s) => s.id === def.choice_set_id)?.extra_choices.map(([v]) => v);
  }
  const byModel = new Map<string, CustomFieldDef[]>();
  for (const { object_types: types, ...def } of defs) for (const model of types) appendTo(byModel, model, def);
  return byModel;
}

/** Keeps the definitions of this server's models from now on (the extras plugin's setup). */
export async function keepDefinitions(ctx: PluginContext): Promise<void> {
  const reload = async () => void kept.set(ctx.registry, await loadDefinitions(ctx.db));
  await reload();
  for (const model of ['extras.customfield', 'extras.customfieldchoiceset']) ctx.watch(model, reload);
}

/** The custom fields of `modelKey`, in weight order, with the values their choice sets allow. */
export async function definitionsOf(ctx: { db: Db; memo: Memo; registry: ModelRegistry }, modelKey: string): Promise<CustomFieldDef[]> {
  // Without the plugin's setup (a bare bootstrap), read once per request or write.
  const byModel = kept.get(ctx.registry) ?? (await ctx.memo.get('extras.custom-fields', () => loadDefinitions(ctx.db)));
  return byModel.get(modelKey) ?? [];
}

/** `n`, or why it is out of `def`'s range (thrown as a string). */
function inRange(def: CustomFieldDef, n: number): number {
  if (def.validation_minimum !== null && n < Number(def.validation_minimum)) throw `Value must be at least ${Number(def.validation_minimum)}`;
  if (def.validation_maximum !== null && n > Number(def.validation_maximum)) throw `Value must not exceed ${Number(def.validation_maximum)}`;
  return n;
}

/** Why `value` is not valid for `def` (thrown as a string), or the value to store. */
export async function cleanValue(def: CustomFieldDef, value: unknown, ctx: WriteScope): Promise<unknown> {
  if (value === null || value === undefined || value === '') return null;
  switch (def.type) {
    case 'text':
    case 'longtext':
    case 'url': {
      if (typeof value !== 'string') throw 'Value must be a string.';
      if (def.type === 'url' && !/^(https?|ftps?):\/\/[^\s/$.?#].[^\s]*$/i.test(value)) throw 'Enter a valid URL.';
      if (def.validation_regex && !userRegex(def.validation_regex).test(value)) throw `Values must match this regex: '${def.validation_regex}'`;
      return value;
    }
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) throw 'Value must be an integer.';
      // JSON numbers beyond 2^53 lose digits: such integers cannot be kept as given.
      if (!Number.isSafeInteger(value)) throw `Value must be between ${Number.MIN_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}.`;
      return inRange(def, value);
    case 'decimal': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n)) throw 'Value must be a decimal.';
      return inRange(def, n);
    }
    case 'boolean':
      if (typeof value !== 'boolean') throw 'Value must be true or false.';
      return value;
    case 'date':
      if (typeof value !== 'string' || !parseDate(value)) throw 'Date values must be in ISO 8601 format (YYYY-MM-DD).';
      return value;
    case 'datetime':
      if (typeof value !== 'string' || !parseDateTime(value)) throw 'Date and time values must be in ISO 8601 format (YYYY-MM-DD HH:MM:SS).';
      return value;
    case 'json':
      return value;
    case 'select':
      if (typeof value !== 'string' || !def.choices?.includes(value)) throw `Invalid choice (${String(value)}). Available choices are: ${def.choices?.join(', ')}`;
      return value;
    case 'multiselect': {
      if (!Array.isArray(value)) throw 'Value must be a list.';
      for (const v of value) if (!def.choices?.includes(v)) throw `Invalid choice(s) (${String(v)}). Available choices are: ${def.choices?.join(', ')}`;
      return value;
    }
    case 'object':
    case 'multiobject': {
      const target = ctx.registry.get(def.related_object_type ?? '');
      const resolve = async (v: unknown) => {
        try {
          // Objects the writer may not view are, to them, unknown.
          return await ctx.resolve(target, v, def.name, { viewable: true });
        } catch (err) {
          if (err instanceof ValidationError) throw `Unknown related object(s): ${JSON.stringify(v)}`;
          throw err;
        }
      };
      if (def.type === 'object') return resolve(value);
      if (!Array.isArray(value)) throw 'Value must be a list of objects.';
      return Promise.all(value.map(resolve));
    }
    default:
      return value;
  }
}
