import { pythonType, userRegex, type Json, type UserRegex } from 'patchbay';

/** Thrown when a stored condition cannot be evaluated against an event's data: the rule is skipped. */
export class InvalidCondition extends Error {}

const OPERATORS = ['eq', 'gt', 'gte', 'lt', 'lte', 'in', 'contains', 'regex'] as const;
type Operator = (typeof OPERATORS)[number];

/** The operators each type of value allows, as NetBox's `Condition.TYPES`. */
function allowed(value: Json): readonly Operator[] {
  if (typeof value === 'string') return ['eq', 'contains', 'regex'];
  if (typeof value === 'boolean') return ['eq', 'contains'];
  if (typeof value === 'number') return ['eq', 'gt', 'gte', 'lt', 'lte', 'contains'];
  if (Array.isArray(value)) return ['eq', 'in', 'contains'];
  if (value === null) return ['eq'];
  return [];
}

/** Python's `==` on JSON values (1 == 1.0, True == 1, lists and dicts by content). */
function equal(a: Json | undefined, b: Json | undefined): boolean {
  if (typeof a === 'boolean' || typeof b === 'boolean') {
    const num = (v: Json | undefined) => (typeof v === 'boolean' ? Number(v) : v);
    return typeof num(a) === 'number' && num(a) === num(b);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => equal(x, b[i]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && equal((a as Record<string, Json>)[k], (b as Record<string, Json>)[k]));
  }
  return a === b;
}

/** Python's `x in container` for a string, a list or a dict (keys). */
function contains(container: Json | undefined, item: Json | undefined): boolean {
  if (typeof container === 'string') {
    if (typeof item !== 'string') throw new TypeError(`'in <string>' requires string as left operand, not ${pythonType(item)}`);
    return container.includes(item);
  }
  if (Array.isArray(container)) return container.some((x) => equal(x, item));
  if (container && typeof container === 'object') {
    if (typeof item === 'string' || typeof item === 'number') return String(item) in container;
    throw new TypeError(`unhashable type: '${pythonType(item)}'`);
  }
  throw new TypeError(`argument of type '${pythonType(container)}' is not iterable`);
}

/** Python's ordering of numbers (and bools), refusing what Python refuses. */
function compare(a: Json | undefined, b: number, op: 'gt' | 'gte' | 'lt' | 'lte'): boolean {
  const x = typeof a === 'boolean' ? Number(a) : a;
  if (typeof x !== 'number') throw new TypeError(`'${{ gt: '>', gte: '>=', lt: '<', lte: '<=' }[op]}' not supported between instances of '${pythonType(a)}' and '${pythonType(b)}'`);
  return op === 'gt' ? x > b : op === 'gte' ? x >= b : op === 'lt' ? x < b : x <= b;
}

interface Evaluable {
  eval(data: Json): boolean;
}

/** One condition: `{"attr": "status.value", "value": "active", "op": "eq", "negate": false}`. */
class Condition implements Evaluable {
  private readonly regex?: UserRegex;

  constructor(private readonly attr: string, private readonly value: Json, private readonly op: Operator, private readonly negate: boolean) {
    if (op === 'regex') {
      userRegex(value as string);
      // Python's `re.match`: from the start of the text.
      this.regex = userRegex(`^(?:${value as string})`);
    }
  }

  static of(rule: Record<string, Json>): Condition {
    const keys = Object.keys(rule);
    if (!keys.includes('attr') || !keys.includes('value') || keys.some((k) => !['attr', 'value', 'op', 'negate'].includes(k))) {
      throw new Error('Incorrect key(s) informed. Please check documentation.');
    }
    const { attr, value, op = 'eq', negate = false } = rule;
    if (typeof attr !== 'string') throw new Error(`Invalid attribute: ${JSON.stringify(attr)}`);
    if (!OPERATORS.includes(op as Operator)) throw new Error(`Unknown operator: ${String(op)}. Must be one of: ${OPERATORS.join(', ')}`);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) throw new Error(`Unsupported value type: <class 'dict'>`);
    if (!allowed(value).includes(op as Operator)) throw new Error(`Invalid type for ${String(op)} operation: <class '${pythonType(value)}'>`);
    try {
      return new Condition(attr, value, op as Operator, Boolean(negate));
    } catch (problem) {
      throw new Error(String(problem));
    }
  }

  /** The value at the dotted path; a list along the way maps the rest of the path over its items. */
  private lookup(data: Json): Json {
    const step = (obj: Json, key: string): Json => {
      const get = (o: Json): Json => {
        const target = o ?? {};
        if (Array.isArray(target)) {
          const index = Number(key);
          if (!/^-?\d+$/.test(key) || !(index in target)) throw new InvalidCondition(`Invalid key path: ${this.attr}`);
          return target[index];
        }
        if (typeof target !== 'object' || !(key in target)) throw new InvalidCondition(`Invalid key path: ${this.attr}`);
        return (target as Record<string, Json>)[key];
      };
      return Array.isArray(obj) ? obj.map((item) => get(item)) : get(obj);
    };
    return this.attr.split('.').reduce<Json>(step, data);
  }

  eval(data: Json): boolean {
    const found = this.lookup(data);
    let result: boolean;
    try {
      result = this.apply(found);
    } catch (err) {
      if (err instanceof TypeError) throw new InvalidCondition(`Invalid data type at '${this.attr}' for '${this.op}' evaluation: ${err.message}`);
      throw err;
    }
    return this.negate ? !result : result;
  }

  private apply(found: Json): boolean {
    switch (this.op) {
      case 'eq':
        return equal(found, this.value);
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte':
        return compare(found, this.value as number, this.op);
      case 'in':
        return contains(this.value, found);
      case 'contains':
        return contains(found, this.value);
      case 'regex':
        if (typeof found !== 'string') throw new TypeError(`expected string or bytes-like object, got '${pythonType(found)}'`);
        return this.regex!.test(found);
    }
  }
}

/** `{"and": [...]}` or `{"or": [...]}` (nestable, any case), or a single condition. */
class ConditionSet implements Evaluable {
  private constructor(private readonly logic: 'and' | 'or' | null, private readonly conditions: Evaluable[]) {}

  static of(ruleset: Json): ConditionSet {
    if (!ruleset || typeof ruleset !== 'object' || Array.isArray(ruleset)) {
      throw new Error(`Ruleset must be a dictionary, not <class '${pythonType(ruleset)}'>.`);
    }
    const keys = Object.keys(ruleset);
    if (keys.length === 1) {
      const logic = keys[0].toLowerCase();
      if (logic !== 'and' && logic !== 'or') throw new Error("Invalid logic type: must be 'AND' or 'OR'. Please check documentation.");
      const rules = ruleset[keys[0]];
      if (!Array.isArray(rules)) throw new Error(`The rules of "${keys[0]}" must be a list.`);
      return new ConditionSet(logic, rules.map((rule) => (isRuleset(rule) ? ConditionSet.of(rule) : Condition.of(asRule(rule)))));
    }
    return new ConditionSet(null, [Condition.of(ruleset as Record<string, Json>)]);
  }

  eval(data: Json): boolean {
    return this.logic === 'or' ? this.conditions.some((c) => c.eval(data)) : this.conditions.every((c) => c.eval(data));
  }
}

function isRuleset(rule: Json): boolean {
  return !!rule && typeof rule === 'object' && !Array.isArray(rule) && Object.keys(rule).length === 1 && ['and', 'or'].includes(Object.keys(rule)[0]);
}

function asRule(rule: Json): Record<string, Json> {
  if (!rule || typeof rule !== 'object' || Array.isArray(rule)) throw new Error(`A condition must be a dictionary, not <class '${pythonType(rule)}'>.`);
  return rule;
}

/** Compiles an event rule's conditions, throwing an Error saying what is wrong with their structure. */
export function compileConditions(conditions: Json): Evaluable {
  return ConditionSet.of(conditions);
}

/** Whether a rule has conditions: as in Python, null, false, 0, "", [] and {} mean none. */
export function hasConditions(conditions: Json | undefined): conditions is Json {
  if (conditions === null || conditions === undefined || conditions === false || conditions === 0 || conditions === '') return false;
  return typeof conditions !== 'object' || Object.keys(conditions).length > 0;
}
