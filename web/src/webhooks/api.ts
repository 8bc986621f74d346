/**
 * The webhooks screen's data (docs/architecture.md "Web data access"): the account's signed webhook
 * registrations (API v2), their deliveries and the legacy subscriptions as TanStack Query
 * `queryOptions` (keys from {@link webhookKeys}), and their writes as mutation hooks.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { webhookKeys } from '../api/keys';
import type { paths } from '../api/schema';

/** A webhook registration's events, as `POST /api/v2/webhooks` takes them. */
export type WebhookEvents = paths['/api/v2/webhooks']['post']['requestBody']['content']['application/json']['events'];

/** The account's signed webhook registrations. */
export const webhooksQuery = () =>
  queryOptions({ queryKey: webhookKeys.all(), queryFn: async () => unwrap(await api.GET('/api/v2/webhooks')).items });

/** The account's legacy (unsigned, deprecated) subscriptions. */
export const subscriptionsQuery = () =>
  queryOptions({ queryKey: webhookKeys.subscriptions(), queryFn: async () => unwrap(await api.GET('/api/v2/subscriptions')).items });

/** One registration's last 100 deliveries, read again every 3 s while shown. */
export const deliveriesQuery = (webhookId: string) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(webhookId),
    refetchInterval: 3000,
    queryFn: async () =>
      unwrap(await api.GET('/api/v2/webhooks/{id}/deliveries', { params: { path: { id: webhookId }, query: { limit: 100 } } })).items,
  });

/** Registers a signed webhook (the answer carries its secret, shown once) and refreshes the list. */
export function useRegisterWebhook() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (body: { targetUrl: string; events: WebhookEvents }) => unwrap(await api.POST('/api/v2/webhooks', { body })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: webhookKeys.all() }),
  });
}

/** Deletes a webhook registration and refreshes the list. */
export function useDeleteWebhook() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => unwrap(await api.DELETE('/api/v2/webhooks/{id}', { params: { path: { id } } })),
    onSettled: () => queries.invalidateQueries({ queryKey: webhookKeys.all() }),
  });
}

/** Ends a legacy subscription and refreshes the list. */
export function useUnsubscribe() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (hookId: string) => unwrap(await api.POST('/api/v2/unsubscribeWebhook', { body: { hookId } })),
    onSettled: () => queries.invalidateQueries({ queryKey: webhookKeys.subscriptions() }),
  });
}
