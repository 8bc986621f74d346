/**
 * The automations feature's data (docs/architecture.md "Web data access"): automations, versions,
 * runs and approvals as TanStack Query `queryOptions` (keys from {@link automationKeys}), the
 * mutation hooks the list, detail and run screens share, and the plain writes they make.
 * `./queries.ts` keeps the builder's hook names over these.
 */
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { automationKeys } from '../api/keys';
import type { paths } from '../api/schema';
import { FINAL, type Run } from './types';

/** The body of `POST /api/v1/automations`. */
export type CreateBody = paths['/api/v1/automations']['post']['requestBody']['content']['application/json'];

/** The body of `PUT /api/v1/automations/{automationId}`: the automation's definition. */
export type UpdateBody = paths['/api/v1/automations/{automationId}']['put']['requestBody']['content']['application/json'];

/** The body of `POST /api/v1/automations/{automationId}/steps/{stepId}/test`. */
export type StepTestBody =
  paths['/api/v1/automations/{automationId}/steps/{stepId}/test']['post']['requestBody']['content']['application/json'];

/** The body of `POST /api/v1/automations/import`. */
export type ImportBody = paths['/api/v1/automations/import']['post']['requestBody']['content']['application/json'];

const at = (automationId: string) => ({ params: { path: { automationId } } });

/** The automations of a workspace; nothing is read while `workspaceId` is undefined. */
export const automationsQuery = (workspaceId: string | undefined) =>
  queryOptions({
    queryKey: automationKeys.inWorkspace(workspaceId),
    enabled: workspaceId !== undefined,
    queryFn: async () => unwrap(await api.GET('/api/v1/automations', { params: { query: { workspaceId: workspaceId! } } })).items,
  });

/** One automation; nothing is read for an empty id. */
export const automationQuery = (automationId: string) =>
  queryOptions({
    queryKey: automationKeys.one(automationId),
    enabled: automationId !== '',
    queryFn: async () => unwrap(await api.GET('/api/v1/automations/{automationId}', at(automationId))).item,
  });

/** How often a piece trigger still being registered is asked about again, in ms. */
const TRIGGER_PENDING_POLL_MS = 5000;

/**
 * Whether the automation's piece trigger is registered with its service
 * (`GET /automations/{id}/trigger`); asked again while it is pending.
 */
export const triggerStatusQuery = (automationId: string) =>
  queryOptions({
    queryKey: automationKeys.trigger(automationId),
    enabled: automationId !== '',
    queryFn: async () => unwrap(await api.GET('/api/v1/automations/{automationId}/trigger', at(automationId))).item,
    refetchInterval: (query) => (query.state.data?.state === 'pending' ? TRIGGER_PENDING_POLL_MS : false),
  });

/** An automation's latest runs (newest first); live updates refetch them, and a slow poll covers a lost stream. */
export const runsQuery = (automationId: string, limit = 20) =>
  queryOptions({
    queryKey: automationKeys.runList(automationId, limit),
    enabled: automationId !== '',
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/automations/{automationId}/runs', { params: { path: { automationId }, query: { limit } } })).items,
    refetchInterval: (query) => (query.state.data?.some((r) => !FINAL.has(r.status)) ? 15_000 : false),
  });

/** One run with its steps; live updates refetch it as steps finish, and a slow poll covers a lost stream until it is final. */
export const runQuery = (automationId: string, runId: string) =>
  queryOptions({
    queryKey: automationKeys.run(runId),
    enabled: automationId !== '' && runId !== '',
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/automations/{automationId}/runs/{runId}', { params: { path: { automationId, runId } } })).item,
    refetchInterval: (query) => (query.state.data && FINAL.has(query.state.data.status) ? false : 15_000),
  });

/** Runs read per page on the runs screen. */
export const WORKSPACE_RUNS_PAGE = 50;

/**
 * A workspace's runs, newest first, page by page (`before` the last one), narrowed to an
 * automation, a status and a start time when given; refreshed every 30 s besides live updates.
 */
export const workspaceRunsQuery = (filter: { workspaceId?: string; automationId: string; status: string; from?: string }) =>
  infiniteQueryOptions({
    queryKey: automationKeys.workspaceRunList(filter),
    enabled: filter.workspaceId !== undefined,
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) =>
      unwrap(
        await api.GET('/api/v1/workspaces/{workspaceId}/runs', {
          params: {
            path: { workspaceId: filter.workspaceId! },
            query: {
              limit: WORKSPACE_RUNS_PAGE,
              ...(filter.automationId ? { automationId: filter.automationId } : {}),
              ...(filter.status ? { status: filter.status as Run['status'] } : {}),
              ...(filter.from ? { createdFrom: filter.from } : {}),
              ...(pageParam ? { before: pageParam } : {}),
            },
          },
        }),
      ).items,
    getNextPageParam: (last) => (last.length === WORKSPACE_RUNS_PAGE ? last[last.length - 1]!.id : undefined),
    refetchInterval: 30_000, // live updates refetch at once; this covers a lost stream
  });

/** The approvals waiting in a workspace (the first 100); live updates refetch them, a 30 s poll covers a lost stream. */
export const approvalsQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: automationKeys.approvalsIn(workspaceId),
    refetchInterval: 30_000,
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/workspaces/{workspaceId}/approvals', { params: { path: { workspaceId }, query: { limit: 100 } } }))
        .items,
  });

/** An automation's versions, newest first. */
export const versionsQuery = (automationId: string) =>
  queryOptions({
    queryKey: automationKeys.versions(automationId),
    queryFn: async () => unwrap(await api.GET('/api/v1/automations/{automationId}/versions', at(automationId))).items,
  });

/** One version of an automation (never changes once made); nothing is read while `version` is undefined. */
export const versionQuery = (automationId: string, version: number | undefined) =>
  queryOptions({
    queryKey: automationKeys.version(automationId, version!),
    enabled: version !== undefined,
    staleTime: Infinity,
    queryFn: async () =>
      unwrap(
        await api.GET('/api/v1/automations/{automationId}/versions/{version}', { params: { path: { automationId, version: version! } } }),
      ).item,
  });

/** What a decision link's token points at (`POST /approvals/inspect`); nothing for an empty token. */
export const decisionLinkQuery = (token: string) =>
  queryOptions({
    queryKey: automationKeys.decisionLink(token),
    enabled: token !== '',
    retry: false,
    queryFn: async () => unwrap(await api.POST('/api/v1/approvals/inspect', { body: { token } })).item,
  });

/**
 * The kinds catalogue as the API document declares it (kept for the session: it changes only with
 * the service's version); the builder's `useKinds` narrows its JSON Schema parts.
 */
export const kindsQuery = () =>
  queryOptions({
    queryKey: automationKeys.kinds(),
    staleTime: Infinity,
    queryFn: async () => unwrap(await api.GET('/api/v1/automations/kinds')),
  });

/** The automation JSON Schema (`GET /api/v1/automations/schema`, kept for the session); nothing is read unless `enabled`. */
export const automationSchemaQuery = (enabled: boolean) =>
  queryOptions({
    queryKey: automationKeys.schema(),
    enabled,
    staleTime: Infinity,
    queryFn: async () => unwrap(await api.GET('/api/v1/automations/schema')),
  });

/**
 * A piece's dynamic dropdown choices for a step's property (`POST /automations/kinds/{type}/options`),
 * computed with the step's connection and the properties it depends on (`props`); nothing is read
 * until the workspace, the step's kind and its connection are known.
 */
export const kindOptionsQuery = (p: {
  workspaceId: string | undefined;
  type: string | undefined;
  prop: string;
  connectionId: string | undefined;
  props: Record<string, unknown>;
}) =>
  queryOptions({
    queryKey: automationKeys.kindOptions(p),
    enabled: p.workspaceId !== undefined && typeof p.type === 'string' && typeof p.connectionId === 'string',
    retry: false,
    queryFn: async () =>
      unwrap(
        await api.POST('/api/v1/automations/kinds/{type}/options', {
          params: { path: { type: p.type! } },
          body: { workspaceId: p.workspaceId!, prop: p.prop, connectionId: p.connectionId!, props: p.props },
        }),
      ).item,
  });

/** Refreshes the automation lists and `automationId` after the builder saved it (both refetched before this resolves). */
export function useRefreshSaved() {
  const queries = useQueryClient();
  return async (automationId: string) => {
    await queries.invalidateQueries({ queryKey: automationKeys.lists() });
    await queries.invalidateQueries({ queryKey: automationKeys.one(automationId) });
  };
}

/** Enable or disable an automation (Owner); the automation lists are refreshed. */
export function useSetEnabled() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (p: { automationId: string; enabled: boolean }) =>
      unwrap(
        p.enabled
          ? await api.POST('/api/v1/automations/{automationId}/enable', at(p.automationId))
          : await api.POST('/api/v1/automations/{automationId}/disable', at(p.automationId)),
      ),
    onSettled: () => queries.invalidateQueries({ queryKey: automationKeys.lists() }),
  });
}

/** Approve or reject the approval a run waits on, with an optional comment; everything shown is read again. */
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

/** The writes of the automation screens (each throws an ApiError from the service). */
export const automationWrites = {
  /** A piece trigger's sample items, read by its test with the draft's connection (`POST /automations/kinds/{type}/sample`). */
  triggerSample: async (p: { type: string; workspaceId: string; connectionId?: string; props?: Record<string, unknown> }) =>
    unwrap(
      await api.POST('/api/v1/automations/kinds/{type}/sample', {
        params: { path: { type: p.type } },
        body: {
          workspaceId: p.workspaceId,
          ...(p.connectionId ? { connectionId: p.connectionId } : {}),
          ...(p.props ? { props: p.props } : {}),
        },
      }),
    ).item,
  create: async (body: CreateBody) => unwrap(await api.POST('/api/v1/automations', { body })).item,
  /** Saves the builder's definition: a new version of `automationId`, or a new automation in `workspaceId`. */
  save: async (automationId: string | undefined, workspaceId: string | undefined, definition: UpdateBody) =>
    automationId
      ? unwrap(await api.PUT('/api/v1/automations/{automationId}', { ...at(automationId), body: definition })).item
      : unwrap(await api.POST('/api/v1/automations', { body: { workspaceId: workspaceId!, ...definition } })).item,
  /** Runs the saved version once as a test with `payload` as the trigger. */
  testRun: async (automationId: string, payload: Record<string, unknown>) =>
    unwrap(await api.POST('/api/v1/automations/{automationId}/test', { ...at(automationId), body: { payload } })).item,
  /** Runs one step of the draft `definition` with the trigger sample and the earlier steps' outputs. */
  testStep: async (automationId: string, stepId: string, body: StepTestBody) =>
    unwrap(await api.POST('/api/v1/automations/{automationId}/steps/{stepId}/test', { params: { path: { automationId, stepId } }, body }))
      .item,
  import: async (body: ImportBody) => unwrap(await api.POST('/api/v1/automations/import', { body })).item,
  /** The automation's portable document (docs "Automations", "Export and import"). */
  export: async (automationId: string) => unwrap(await api.GET('/api/v1/automations/{automationId}/export', at(automationId))),
  remove: async (automationId: string) => unwrap(await api.DELETE('/api/v1/automations/{automationId}', at(automationId))),
  restoreVersion: async (automationId: string, version: number) =>
    unwrap(
      await api.POST('/api/v1/automations/{automationId}/versions/{version}/restore', {
        params: { path: { automationId, version } },
        body: {},
      }),
    ).item,
  replay: async (automationId: string, runId: string, body: { from: 'failed-step' | 'start'; version: 'original' | 'current' }) =>
    unwrap(await api.POST('/api/v1/automations/{automationId}/runs/{runId}/replay', { params: { path: { automationId, runId } }, body }))
      .item,
  cancel: async (automationId: string, runId: string) =>
    unwrap(await api.POST('/api/v1/automations/{automationId}/runs/{runId}/cancel', { params: { path: { automationId, runId } } })),
  /** Decides the approval a decision link's token points at, as the signed-in person. */
  decideByLink: async (token: string, approve: boolean, comment: string) =>
    unwrap(
      await api.POST('/api/v1/approvals/decide', {
        body: { token, decision: approve ? 'approve' : 'reject', ...(comment ? { comment } : {}) },
      }),
    ).item,
};
