import type { CommonOptions } from '../field.js';
import { RelatedCountField } from './computed.js';
import { DisplayField } from './standard.js';
import { ChoiceField, type ChoiceOptions, type ChoiceSet } from './choice.js';
import { ForeignKeyField, ParentField, type ForeignKeyOptions } from './foreign-key.js';
import { GenericForeignKeyField, type GenericOptions } from './generic.js';
import { ImageField, type ImageOptions } from './image.js';
import { ListField, type ListOptions } from './list.js';
import { ReverseField, type ReverseOptions } from './reverse.js';
import { ManyToManyField, type ManyToManyOptions } from './many-to-many.js';
import {
  BooleanField, ColorField, DateField, DateTimeField, DecimalField, EmailField, IntegerField, JsonField, SlugField, StringField, TimeZoneField, UrlField, UuidField,
  type DecimalOptions, type IntegerOptions, type JsonOptions, type StringOptions, type TemporalOptions,
} from './scalar.js';

/** Field builders for `defineModel`; each call makes a new field (a field object belongs to one model). */
export const f = {
  /** Text; `natural: true` orders names with numbers as people read them. */
  string: (o: StringOptions = {}) => new StringField(o),
  /** Unlimited text (comments). */
  text: (o: CommonOptions = {}) => new StringField(o),
  slug: (o: StringOptions = {}) => new SlugField({ max: 100, ...o }),
  email: (o: StringOptions = {}) => new EmailField({ max: 254, ...o }),
  url: (o: StringOptions = {}) => new UrlField({ max: 200, ...o }),
  uuid: (o: CommonOptions = {}) => new UuidField({ max: 36, ...o }),
  /** Six hex digits (`9e9e9e`). */
  color: (o: StringOptions = {}) => new ColorField({ max: 6, ...o }),
  /** An IANA time zone name, or null. */
  timezone: (o: StringOptions = {}) => new TimeZoneField({ max: 63, nullable: true, ...o }),
  integer: (o: IntegerOptions = {}) => new IntegerField(o),
  decimal: (o: DecimalOptions) => new DecimalField(o),
  boolean: (o: CommonOptions = {}) => new BooleanField(o),
  datetime: (o: TemporalOptions = {}) => new DateTimeField(o),
  date: (o: TemporalOptions = {}) => new DateField(o),
  json: (o: JsonOptions = {}) => new JsonField(o),
  choice: (set: ChoiceSet, o: ChoiceOptions = {}) => new ChoiceField(set, o),
  fk: (target: string, o: ForeignKeyOptions = {}) => new ForeignKeyField(target, o),
  /** Makes the model a tree: `parent` plus a computed `_depth`. */
  parent: (target: string, o: ForeignKeyOptions = {}) => new ParentField(target, { nullable: true, onDelete: 'cascade', ...o }),
  m2m: (target: string, o: ManyToManyOptions = {}) => new ManyToManyField(target, o),
  generic: (o: GenericOptions = {}) => new GenericForeignKeyField(o),
  /** The object (or, with `many`, the objects) of `model` whose field `via` points here; read-only. */
  reverse: (model: string, via: string, o: ReverseOptions = {}) => new ReverseField(model, via, o),
  /** How many objects of `model` point here through its field `via` (a foreign key or generic relation); read-only. */
  count: (model: string, via: string) => new RelatedCountField(model, via),
  /** The object's `display` again under another name (`display_name`, which NetBox 2 era clients read). */
  displayName: () => new DisplayField(),
  /** An image uploaded with multipart/form-data, stored under MEDIA_ROOT/`folder`, read as its URL. */
  image: (o: ImageOptions) => new ImageField(o),
  /** A list of strings stored in a PostgreSQL array. */
  list: (o: ListOptions) => new ListField(o),
};

export { defineChoices, ChoiceSet } from './choice.js';
