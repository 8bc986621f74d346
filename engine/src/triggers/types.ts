import type { Trigger } from '../definition';

/** A service event handed to the engine (an outbox row of the host). */
export interface TriggerEvent {
  /** Event id: runs started by it are de-duplicated on it, so submitting twice is harmless. */
  id: string;
  /** Event type, e.g. `task.added` (matches trigger types of the same name). */
  type: string;
  workspaceId: string;
  payload: Record<string, unknown>;
  /** How many automation runs led to this event (0 for a change made through the API). */
  depth?: number;
  /** When the event was raised, ms since the epoch (automations created later ignore it). */
  at?: number;
}

/** One event trigger kind: turns a matching event's payload into the run's `trigger` variables. */
export interface EventTriggerKind {
  /** The variables of a run started by `event`. */
  variables(event: TriggerEvent, trigger: Trigger): Record<string, unknown>;
}
