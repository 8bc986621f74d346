import { KIND_LISTS } from '../api/lists';
import type { paths } from '../api/schema';

/** An automation as the API answers it (`GET /api/v1/automations/{automationId}`; docs "Automations"). */
export type Automation = paths['/api/v1/automations/{automationId}']['get']['responses'][200]['content']['application/json']['item'];

/** A run of an automation, with its steps: the API item (`GET /api/v1/automations/{automationId}/runs/{runId}`). */
export type Run = paths['/api/v1/automations/{automationId}/runs/{runId}']['get']['responses'][200]['content']['application/json']['item'];

/** A run's step (journal entry). */
export type Step = NonNullable<Run['steps']>[number];

/** Statuses after which a run never changes (catalogue `lists.finalRunStatuses`, published by the engine). */
export const FINAL = new Set<Run['status']>(KIND_LISTS.finalRunStatuses);
