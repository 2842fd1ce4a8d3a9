import type { JsonObject } from '../model/types.js';

export type ModelAction = 'created' | 'updated' | 'deleted';

/** A committed change of one object. */
export interface ModelEvent {
  action: ModelAction;
  /** `app.model` */
  model: string;
  id: number;
  /** The object's representation after the change (before it, for deletes), with host-less URLs. */
  data: JsonObject | null;
  requestId: string;
}

export type EventListener = (event: ModelEvent) => Promise<void> | void;

/**
 * Delivers events only after their transaction committed: writers collect them per request
 * and publish the batch once the commit succeeded.
 */
export class EventBus {
  private readonly listeners: EventListener[] = [];

  constructor(private readonly onError: (err: Error) => void) {}

  get hasListeners(): boolean {
    return this.listeners.length > 0;
  }

  subscribe(listener: EventListener): void {
    this.listeners.push(listener);
  }

  async publish(events: ModelEvent[]): Promise<void> {
    for (const event of events) {
      for (const listener of this.listeners) {
        try {
          await listener(event);
        } catch (err) {
          this.onError(err as Error);
        }
      }
    }
  }
}
