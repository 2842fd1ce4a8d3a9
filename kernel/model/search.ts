import type { Field } from './field.js';
import { searchKey } from './fields/relation.js';
import type { Model } from './model.js';
import type { ModelRegistry } from './registry.js';
import { lastValue, type QueryFilter } from '../filters/builders.js';
import { FilterError } from '../filters/errors.js';
import { PATTERN_LOOKUPS } from '../filters/lookups.js';
import { and, cmp, or, type FilterNode } from '../filters/tree.js';

/** One comparison `?q=` makes: a path from the model, its lookup, and the field the path ends on. */
export interface SearchTerm {
  path: string[];
  lookup: string;
  field: Field;
}

/**
 * The terms of a model's `search` declaration, in NetBox's notation with Django's path separator: an entry names a
 * path (`name`, `rack__facility_id`, `terminations__xconnect_id`, `member__cid` through a generic relation) and
 * optionally its lookup (`address:istartswith`); without one the field's own search lookup applies (text:
 * `icontains`, numbers: `exact`), and a path ending on a relation means its target's name (or username, or slug).
 * A mistake is a start-up error naming the model and the entry.
 */
export function searchTerms(model: Model, registry: ModelRegistry): SearchTerm[] {
  return model.search.map((entry) => {
    const fail = (why: string) => new Error(`${model.key}: search entry "${entry}" ${why}`);
    const [spec, explicit, ...extra] = entry.split(':');
    if (extra.length) throw fail('has more than one lookup');
    const path = spec.split('__');
    let models = [model];
    let field: Field | undefined;
    for (let i = 0; i < path.length; i++) {
      const name = path[i];
      field = models.map((m) => registry.fieldOf(m, name)).find(Boolean);
      // A list another model's relation offers (`terminations` on a circuit) continues on that model.
      const offered = field ? undefined : models.map((m) => registry.offeredList(m, name)).find(Boolean);
      if (offered && i < path.length - 1) {
        models = [offered.source];
        continue;
      }
      if (!field) throw fail(`names ${name}, which is not a field of ${models.map((m) => m.key).join(' or ')}`);
      const targets = field.walk(name, registry)?.targets.map((key) => registry.get(key));
      if (!targets) {
        if (i < path.length - 1) throw fail(`continues past ${name}, which is not a relation`);
        break;
      }
      models = targets;
      // A relation itself is searched by its target's natural name: the path grows by it, resolved next round.
      const key = i === path.length - 1 && targets.length === 1 ? searchKey(targets[0]) : undefined;
      if (key) path.push(key);
      else if (i === path.length - 1) throw fail(`ends on the relation ${name}: name the field of its objects to search`);
    }
    const lookup = explicit ?? field!.searchLookup();
    if (!lookup) throw fail('needs a lookup (`:icontains`, `:exact`...): its field has no search lookup of its own');
    if (!field!.lookups()[lookup]) throw fail(`compares ${field!.name} with ${lookup}, which its field does not offer`);
    return { path, lookup, field: field! };
  });
}

/** Whether `text` is a value the term's field can compare (`?q=abc` skips an ASN's `exact`, a prefix's containment). */
function accepts(term: SearchTerm, text: string): boolean {
  if (PATTERN_LOOKUPS.has(term.lookup)) return true;
  try {
    term.field.filterValue(text, term.lookup);
    return true;
  } catch (err) {
    if (err instanceof FilterError) return false;
    throw err;
  }
}

/** `?q=`: rows matching any term the text is a value for; a blank text matches everything. */
export function searchFilter(terms: SearchTerm[]): QueryFilter {
  return {
    suffixes: [],
    build: (_s, values) => {
      const text = lastValue(values).trim();
      if (!text) return and([]);
      const matching = terms.filter((t) => accepts(t, text));
      const nodes: FilterNode[] = matching.map((t) => cmp(t.path, t.lookup, text));
      // One OR over the model's own columns is a BitmapOr of their indexes; a term across a relation in it would make
      // PostgreSQL read the whole table, so then each term is looked up through its own index and the ids united.
      return or(nodes, matching.some((t) => t.path.length > 1));
    },
  };
}
