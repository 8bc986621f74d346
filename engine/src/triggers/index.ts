/**
 * Trigger runtime helpers. Event triggers match service events through the engine's
 * `KindRegistry.matchEvent` (each kind declared in `../kinds/triggers`); schedule triggers fire
 * from `Engine.tick`; webhook and form triggers start through `Engine.startRun` when the
 * automation's inbound URL is called.
 */
export type { TriggerEvent } from './types';
export { dueSlot, nextSlot, scheduleVariables } from './schedule';
export { webhookVariables, type WebhookRequest } from './webhook';
