/**
 * The superstruct validators a plugin writes its `config.schema` with: exported as `struct` so that plugins import
 * only `patchbay` (`struct.object({ local_as: struct.min(struct.integer(), 1) })`).
 */
export {
  array, boolean, defaulted, enums, integer, literal, max, min, nullable, number, object, optional, pattern, record, refine, size,
  string, union, unknown, type Infer, type Struct,
} from 'superstruct';
