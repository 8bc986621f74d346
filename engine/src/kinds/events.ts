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
  /**
   * The automation and run whose step made the change that raised the event (absent for a
   * change made through the API). A task trigger skips its own automation's events unless
   * `includeOwnChanges` is set.
   */
  causedBy?: { automationId: string; runId: string };
}
