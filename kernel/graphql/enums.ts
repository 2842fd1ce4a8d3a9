import type { GraphQLEnumType } from 'graphql';
import type { SchemaComposer } from 'graphql-compose';
import type { PropertyDescription } from '../model/description.js';
import type { Model } from '../model/model.js';

/** Other names an enum accepts for its members in queries, each to the member it stands for. */
export type EnumAliases = Record<string, string>;

/** The aliases an enum of this schema accepts (none for another enum). */
export function aliasesOf(type: GraphQLEnumType): EnumAliases {
  return (type.extensions as { aliases?: EnumAliases }).aliases ?? {};
}

/** `poe_mode` → `PoeMode`. */
export const pascal = (text: string): string => text.replace(/(^|_)([a-z0-9])/g, (_m, _s, c: string) => c.toUpperCase());

/** NetBox's member names: the prefix and the value in upper case, other characters as `_` (`TYPE_1000BASE_T`). */
function memberName(prefix: string, value: string | number): string {
  const name = `${prefix ? `${prefix}_` : ''}${String(value)}`.toUpperCase().replace(/[^_A-Z0-9]/g, '_');
  return /^[_A-Z]/.test(name) ? name : `_${name}`;
}

/**
 * The GraphQL enums of choice fields, as NetBox names them: after the set where it says (`PortTypeEnum`), else
 * after the first field using it (`SiteStatusEnum`, members `STATUS_ACTIVE`). Filters take the members; outputs
 * stay the stored values, as in NetBox.
 */
export class Enums {
  /**
   * A computed choice's `{value, label}` as an object type (NetBox's `IPAddressFamilyType`): computed choices read
   * so in NetBox's GraphQL, stored ones as their bare value.
   */
  labelledType(model: Model, p: PropertyDescription): string {
    const name = this.nameOf(model, p).replace(/Enum$/, 'Type');
    if (!this.composer.has(name)) {
      this.composer.createObjectTC({ name, fields: { value: p.type === 'integer' ? 'Int!' : 'String!', label: 'String!' } });
    }
    return name;
  }

  /** Enum name → member → stored value. */
  private readonly values = new Map<string, Map<string, string | number>>();

  constructor(private readonly composer: SchemaComposer<unknown>) {}

  /** The name of the enum of a described choice key of `model`. */
  nameOf(model: Model, p: PropertyDescription): string {
    return p.enum?.name ?? `${model.className}${pascal(p.key)}Enum`;
  }

  /** The enum of a described choice key of `model`, made on first use. */
  of(model: Model, p: PropertyDescription): string {
    const choices = p.choices!;
    const name = this.nameOf(model, p);
    const existing = this.values.get(name);
    if (existing) {
      // Two sets may not share a name: the second would change the first's members.
      if (JSON.stringify([...existing.values()]) !== JSON.stringify(choices.map((c) => c.value))) {
        throw new Error(`${model.key}.${p.key}: GraphQL enum ${name} is already made of other choices; name the set (defineChoices(…, { name }))`);
      }
      return name;
    }
    const prefix = p.enum?.prefix ?? p.key;
    const members = new Map(choices.map((c) => [memberName(prefix, c.value), c.value]));
    this.values.set(name, members);
    // An enum named otherwise than after its field (NetBox's unprefixed `CircuitStatusEnum.ACTIVE`) also takes the
    // names other enums' members have (`STATUS_ACTIVE`): accepted in queries, not listed as members.
    const aliases: EnumAliases = prefix === p.key
      ? {}
      : Object.fromEntries([...members].map(([member, value]) => [memberName(p.key, value), member]).filter(([alias]) => !members.has(alias)));
    this.composer.createEnumTC({
      name,
      values: Object.fromEntries([...members].map(([member, value]) => [member, { value, description: choices.find((c) => c.value === value)?.label }])),
      extensions: { aliases },
    });
    return name;
  }
}
