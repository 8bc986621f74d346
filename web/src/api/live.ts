import { useCallback, useEffect, useRef, useState } from 'react';
import { useMatch } from 'react-router';
import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { projectQuery, type PresentPeople } from '../projects/api';
import { automationKeys, projectKeys, taskKeys } from './keys';

/** How long the previous stream stays open for a new one that never gets ready, in ms. */
const HANDOVER_MS = 5000;

/**
 * Keeps what the app shows fresh from the service's live stream, `GET /api/v1/live` (docs "Web app",
 * "Live updates"): a `project` event refetches that project's outline, a `run` event that run, its
 * automation's run list, the runs screen and the approvals inbox. The events only say what changed;
 * the data comes through the normal API. After a reconnect everything shown is read again, as changes
 * may have been missed meanwhile. The browser reconnects by itself (the stream asks for 1 s).
 *
 * On a project page (once the project has loaded) the stream is opened with `?projectId=`, so the
 * person is present on it (docs "Web app", "Presence"), and its `presence` events fill the
 * {@link projectKeys} `presence` query that the project header shows. Every key comes from
 * `keys.ts` (docs/architecture.md "Web data access"). Moving to another page opens the
 * new stream first and closes the old one once the new one is ready, so no change is missed in
 * between. A project stream the service refuses (the project was deleted meanwhile) gives way to a
 * plain one.
 */
export function useLiveUpdates(enabled: boolean): void {
  const queries = useQueryClient();
  const projectId = useMatch('/projects/:projectId')?.params.projectId;
  const project = useQuery({ ...projectQuery(projectId), enabled: enabled && projectId !== undefined });
  const [refused, setRefused] = useState<string>();
  const watch = project.isSuccess && projectId !== refused ? projectId : undefined;
  /** The stream being replaced, until its successor is ready. */
  const previous = useRef<{ source: EventSource; timer: ReturnType<typeof setTimeout> } | undefined>(undefined);

  /** Closes the stream being replaced, if any. */
  const retire = useCallback(() => {
    if (!previous.current) return;
    clearTimeout(previous.current.timer);
    previous.current.source.close();
    previous.current = undefined;
  }, []);

  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') {
      retire();
      return;
    }
    const source = new EventSource(watch === undefined ? '/api/v1/live' : `/api/v1/live?projectId=${encodeURIComponent(watch)}`);
    let connected = false;
    const refetch = (queryKey: QueryKey) => void queries.invalidateQueries({ queryKey });
    source.addEventListener('ready', () => {
      if (connected) void queries.invalidateQueries();
      connected = true;
      retire();
    });
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED && watch !== undefined) setRefused(watch);
    });
    source.addEventListener('project', (e) => {
      const { projectId } = JSON.parse((e as MessageEvent<string>).data) as { projectId: string };
      refetch(taskKeys.of(projectId));
      refetch(projectKeys.one(projectId));
    });
    source.addEventListener('run', (e) => {
      const { runId, automationId } = JSON.parse((e as MessageEvent<string>).data) as { runId: string; automationId: string };
      refetch(automationKeys.run(runId));
      refetch(automationKeys.runs(automationId));
      refetch(automationKeys.workspaceRuns());
      refetch(automationKeys.approvals());
    });
    source.addEventListener('presence', (e) => {
      const { projectId, people } = JSON.parse((e as MessageEvent<string>).data) as { projectId: string; people: PresentPeople };
      queries.setQueryData(projectKeys.presence(projectId), people);
    });
    return () => {
      retire();
      const timer = setTimeout(() => {
        source.close();
        if (previous.current?.source === source) previous.current = undefined;
      }, HANDOVER_MS);
      previous.current = { source, timer };
    };
  }, [enabled, watch, queries, retire]);
  // Leaving the app (sign-out unmounts the layout) closes the stream at once: no successor is
  // coming, and a stream kept for the handover would reconnect to a 401. Declared after the effect
  // above, so its cleanup runs after that one's.
  useEffect(() => retire, [retire]);
}
