import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { FINAL } from './types';

/** The automations of a workspace. */
export function useAutomations(workspaceId: string | undefined) {
  return useQuery({
    queryKey: ['automations', workspaceId],
    enabled: workspaceId !== undefined,
    queryFn: async () => unwrap(await api.GET('/api/v1/automations', { params: { query: { workspaceId: workspaceId! } } })).items,
  });
}

/** One automation. */
export function useAutomation(automationId: string) {
  return useQuery({
    queryKey: ['automation', automationId],
    enabled: automationId !== '',
    queryFn: async () => unwrap(await api.GET('/api/v1/automations/{automationId}', { params: { path: { automationId } } })).item,
  });
}

/** An automation's latest runs (newest first); live updates refetch them, and a slow poll covers a lost stream. */
export function useRuns(automationId: string, limit = 20) {
  return useQuery({
    queryKey: ['runs', automationId, limit],
    enabled: automationId !== '',
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/automations/{automationId}/runs', { params: { path: { automationId }, query: { limit } } })).items,
    refetchInterval: (query) => (query.state.data?.some((r) => !FINAL.has(r.status)) ? 15_000 : false),
  });
}

/** One run with its steps; live updates refetch it as steps finish, and a slow poll covers a lost stream until it is final. */
export function useRun(automationId: string, runId: string) {
  return useQuery({
    queryKey: ['run', runId],
    enabled: automationId !== '' && runId !== '',
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/automations/{automationId}/runs/{runId}', { params: { path: { automationId, runId } } })).item,
    refetchInterval: (query) => (query.state.data && FINAL.has(query.state.data.status) ? false : 15_000),
  });
}

/** Enable or disable an automation (Owner). */
export function useSetEnabled() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (p: { automationId: string; enabled: boolean }) => {
      const params = { params: { path: { automationId: p.automationId } } };
      return unwrap(
        p.enabled
          ? await api.POST('/api/v1/automations/{automationId}/enable', params)
          : await api.POST('/api/v1/automations/{automationId}/disable', params),
      );
    },
    onSettled: () => queries.invalidateQueries({ queryKey: ['automations'] }),
  });
}

/** Approve or reject the approval a run waits on, with an optional comment. */
export function useDecide() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (p: { automationId: string; runId: string; approve: boolean; comment: string }) => {
      const params = { params: { path: { automationId: p.automationId, runId: p.runId } }, body: p.comment ? { comment: p.comment } : {} };
      return unwrap(
        p.approve
          ? await api.POST('/api/v1/automations/{automationId}/runs/{runId}/approve', params)
          : await api.POST('/api/v1/automations/{automationId}/runs/{runId}/reject', params),
      );
    },
    onSettled: () => queries.invalidateQueries(),
  });
}
