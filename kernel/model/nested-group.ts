import type { Field } from './field.js';
import { f } from './fields/index.js';
import type { ModelDeclaration, UniqueConstraint } from './model.js';

/** How a tree model differs from the others; every option may be left out. */
export interface NestedGroupOptions {
  /** Lower-case human name (`site group`), declared for the model and used in its constraint messages; default the model's name. */
  verboseName?: string;
  /** The count of what a group holds (`site_count`), shown with `_depth` in a child's nested parent and in the brief form. */
  count?: string;
  /** Fields a group belongs to (a location's `site`), declared between slug and parent; names and slugs are unique within them. */
  scope?: Record<string, Field>;
  /** The model's own fields, declared between parent and description. */
  fields?: Record<string, Field>;
  /** More fields `?q=` searches, between slug and description (a location's `facility`). */
  search?: string[];
  /**
   * Where names and slugs are unique: `tree` (the default) among siblings and among the top-level groups (within the
   * scope); `global` among all groups (tenant groups); `siblingNames` names only, among siblings (contact groups).
   */
  unique?: 'tree' | 'global' | 'siblingNames';
}

/** The part of a tree model's declaration `nestedGroup` makes: spread it into `defineModel` and add the rest. */
export type NestedGroupDeclaration = Required<Pick<ModelDeclaration, 'fields' | 'brief' | 'search'>> & Pick<ModelDeclaration, 'verboseName' | 'unique'>;

const SHARED = ['name', 'slug', 'parent', 'description', 'comments'];

/**
 * The declaration NetBox's tree models share (its abstract NestedGroupModel: regions, site groups, locations, tenant
 * and contact groups): `name`, `slug`, a `parent` nesting the parent with its count and `_depth`, `description` and
 * `comments`; names and slugs unique among siblings, with NetBox's messages; the brief form and the `?q=` search.
 * Declared once here so that these models cannot drift apart from each other; a model spreads the result into
 * `defineModel(key, …)` and adds its path, ordering, features and rules, saying how it differs by `options`.
 */
export function nestedGroup(key: string, options: NestedGroupOptions = {}): NestedGroupDeclaration {
  const { verboseName, count, scope = {}, fields = {}, search = [], unique = 'tree' } = options;
  const clash = [...Object.keys(scope), ...Object.keys(fields)].find((name) => SHARED.includes(name));
  if (clash) throw new Error(`${key}: "${clash}" is declared by nestedGroup`);
  const scoped = Object.keys(scope);
  if (unique === 'global' && scoped.length) throw new Error(`${key}: globally unique names have no scope`);
  const noun = verboseName ?? key.slice(key.indexOf('.') + 1);
  const counted = count === undefined ? [] : [count];
  return {
    ...(verboseName === undefined ? {} : { verboseName }),
    fields: {
      name: f.string({ max: 100, ...(unique === 'global' ? { unique: true } : {}) }),
      slug: f.slug({ max: 100, ...(unique === 'global' ? { unique: true } : {}) }),
      ...scope,
      parent: f.parent(key, { nested: ['id', 'url', 'display_url', 'display', 'name', 'slug', ...counted, '_depth'], related: 'children' }),
      ...fields,
      description: f.string({ max: 200, blank: true }),
      comments: f.text({ blank: true }),
    },
    ...(unique === 'global' ? {} : { unique: uniqueNames(noun, scoped, unique) }),
    brief: ['name', 'slug', 'description', ...counted, '_depth'],
    search: ['name', 'slug', ...search, 'description', 'comments'],
  };
}

function uniqueNames(noun: string, scope: string[], unique: 'tree' | 'siblingNames'): UniqueConstraint[] {
  if (unique === 'siblingNames') {
    return [{ fields: [...scope, 'parent', 'name'], message: `A ${noun} with this name already exists within the parent group.` }];
  }
  const within = scope.map((name) => name.replaceAll('_', ' ')).join(' and ');
  return ['name', 'slug'].flatMap((field): UniqueConstraint[] => [
    { fields: [...scope, 'parent', field] },
    {
      fields: [...scope, field],
      whenNull: ['parent'],
      message: scope.length ? `A ${noun} with this ${field} already exists within the specified ${within}.` : `A top-level ${noun} with this ${field} already exists.`,
    },
  ]);
}
