import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';

/**
 * Keeps what the app shows fresh from the service's live stream, `GET /api/v1/live` (docs "Web app",
 * "Live updates"): a `project` event refetches that project's outline, a `run` event that run, its
 * automation's run list, the runs screen and the approvals inbox. The events only say what changed;
 * the data comes through the normal API. After a reconnect everything shown is read again, as changes
 * may have been missed meanwhile. The browser reconnects by itself (the stream asks for 1 s).
 */
export function useLiveUpdates(enabled: boolean): void {
  const queries = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/v1/live');
    let connected = false;
    const refetch = (queryKey: unknown[]) => void queries.invalidateQueries({ queryKey });
    source.addEventListener('ready', () => {
      if (connected) void queries.invalidateQueries();
      connected = true;
    });
    source.addEventListener('project', (e) => {
      const { projectId } = JSON.parse((e as MessageEvent<string>).data) as { projectId: string };
      refetch(['tasks', projectId]);
      refetch(['project', projectId]);
    });
    source.addEventListener('run', (e) => {
      const { runId, automationId } = JSON.parse((e as MessageEvent<string>).data) as { runId: string; automationId: string };
      refetch(['run', runId]);
      refetch(['runs', automationId]);
      refetch(['workspace-runs']);
      refetch(['approvals']);
    });
    return () => source.close();
  }, [enabled, queries]);
}
