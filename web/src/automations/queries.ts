/**
 * The automation hooks the builder (`Builder.tsx`, `builder/`) imports, kept by name over the
 * feature's `queryOptions` in `./api.ts` (docs/architecture.md "Web data access").
 */
import { useQuery } from '@tanstack/react-query';
import { automationQuery, automationsQuery, runQuery, runsQuery } from './api';

export { useDecide, useSetEnabled } from './api';

/** The automations of a workspace ({@link automationsQuery}). */
export function useAutomations(workspaceId: string | undefined) {
  return useQuery(automationsQuery(workspaceId));
}

/** One automation ({@link automationQuery}). */
export function useAutomation(automationId: string) {
  return useQuery(automationQuery(automationId));
}

/** An automation's latest runs ({@link runsQuery}). */
export function useRuns(automationId: string, limit = 20) {
  return useQuery(runsQuery(automationId, limit));
}

/** One run with its steps ({@link runQuery}). */
export function useRun(automationId: string, runId: string) {
  return useQuery(runQuery(automationId, runId));
}
