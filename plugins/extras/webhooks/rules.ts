import type { Db, EventType, Json, JsonObject, ObjectEvent } from 'patchbay';
import { compileConditions, hasConditions, InvalidCondition } from './conditions.js';

/** An enabled webhook rule, its conditions compiled. */
interface Rule {
  id: number;
  name: string;
  objectTypes: Set<string>;
  eventTypes: Set<string>;
  test: (data: Json) => boolean;
  webhookId: number;
  actionData: JsonObject | null;
}

/**
 * The enabled event rules, in memory: every write asks whether a rule wants its changes (only then are events
 * rendered and stored). Reloaded after every committed change of a rule, in this process and in others.
 */
export class EventRules {
  private rules: Rule[] = [];
  private wanted = new Set<string>();

  constructor(private readonly db: Db, private readonly warn: (msg: string) => void) {}

  async load(): Promise<void> {
    const rows = (await this.db('extras_eventrule as r')
      .join('core_objecttype as t', 't.id', 'r.action_object_type_id')
      .where({ 'r.enabled': true, 'r.action_type': 'webhook', 't.app_label': 'extras', 't.model': 'webhook' })
      .select('r.id', 'r.name', 'r.object_types', 'r.event_types', 'r.conditions', 'r.action_object_id', 'r.action_data')
      .orderBy('r.name')) as { id: number; name: string; object_types: string[]; event_types: string[]; conditions: Json; action_object_id: number; action_data: JsonObject | null }[];
    this.rules = rows.map((row) => ({
      id: row.id, name: row.name, objectTypes: new Set(row.object_types), eventTypes: new Set(row.event_types),
      test: this.tester(row.name, row.conditions), webhookId: row.action_object_id, actionData: row.action_data,
    }));
    this.wanted = new Set(this.rules.flatMap((r) => [...r.objectTypes].flatMap((m) => [...r.eventTypes].map((e) => `${m} ${e}`))));
  }

  /** A rule's conditions as a test of an event's data; one that cannot be evaluated skips the rule (and says why). */
  private tester(name: string, conditions: Json): (data: Json) => boolean {
    if (!hasConditions(conditions)) return () => true;
    const compiled = compileConditions(conditions);
    return (data) => {
      try {
        return compiled.eval(data);
      } catch (err) {
        if (!(err instanceof InvalidCondition)) throw err;
        this.warn(`event rule ${name}: evaluation failed. ${err.message}`);
        return false;
      }
    };
  }

  wants(model: string, type: EventType): boolean {
    return this.wanted.has(`${model} ${type}`);
  }

  /** The rules an event fires, in name order. */
  matching(event: ObjectEvent): Rule[] {
    return this.rules.filter((r) => r.objectTypes.has(event.model) && r.eventTypes.has(event.type) && r.test(event.data));
  }
}
