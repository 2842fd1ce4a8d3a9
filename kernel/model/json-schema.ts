import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { userRegex } from './regex.js';

/**
 * JSON Schemas users write (a module type profile's, a config context profile's), checked as NetBox checks them
 * with `jsonschema` (2020-12 unless the schema names another draft). Schemas come from users, so `pattern`s run on
 * RE2 (linear time), formats are not checked (as NetBox does not), and uniqueness over objects or arrays needs a
 * `maxItems` (otherwise its cost grows with the square of the list).
 */
const regExp = Object.assign((pattern: string) => userRegex(pattern), { code: 'userRegex' });
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false, logger: false, code: { regExp } });

const compiled = new Map<string, ValidateFunction>();
const CACHE_SIZE = 64;

/** Error text in the manner of NetBox's: where in the data, and what is wrong. */
function describe(error: ErrorObject): string {
  const where = error.instancePath ? `${error.instancePath.slice(1).replace(/\//g, '.')} ` : '';
  return `${where}${error.message ?? 'is invalid'}`;
}

/** Walks every sub-schema: a `uniqueItems` list of objects or arrays must be bounded. */
function unboundedUniqueness(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(unboundedUniqueness);
  if (!node || typeof node !== 'object') return false;
  const schema = node as Record<string, unknown>;
  const itemType = (schema.items as Record<string, unknown> | undefined)?.type;
  const types = Array.isArray(itemType) ? itemType : [itemType];
  const complex = schema.items === undefined || types.some((t) => t === 'object' || t === 'array' || t === undefined);
  if (schema.uniqueItems === true && complex && typeof schema.maxItems !== 'number') return true;
  return Object.values(schema).some(unboundedUniqueness);
}

/** The validator of a schema, or the reason it is not a usable JSON Schema (thrown as a string). */
function validatorOf(schema: unknown): ValidateFunction {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) throw 'Invalid JSON schema definition';
  const key = JSON.stringify(schema);
  const cached = compiled.get(key);
  if (cached) return cached;
  if (!ajv.validateSchema(schema)) throw `Invalid JSON schema definition: ${ajv.errorsText(ajv.errors, { dataVar: 'schema' })}`;
  if (unboundedUniqueness(schema)) throw 'Invalid JSON schema definition: uniqueItems over objects or arrays needs maxItems';
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (err) {
    throw `Invalid JSON schema definition: ${typeof err === 'string' ? err : (err as Error).message}`;
  } finally {
    // The validator is ours to cache; Ajv's own cache would keep every schema ever written.
    ajv.removeSchema(schema);
  }
  if (compiled.size >= CACHE_SIZE) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, validate);
  return validate;
}

/** Throws (a string) why `schema` is not a usable JSON Schema; null describes nothing and is fine. */
export function checkJsonSchema(schema: unknown): void {
  if (schema === null || schema === undefined) return;
  validatorOf(schema);
}

/** Why `data` does not satisfy `schema` (where in the data, and what is wrong), or undefined when it does. */
export function schemaViolation(data: unknown, schema: unknown): string | undefined {
  const validate = validatorOf(schema);
  return validate(data ?? null) ? undefined : describe(validate.errors![0]);
}
