import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useFolderProjects, useMe } from '../../api/queries';
import { projectQuery } from '../../projects/api';
import { firstTaskQuery } from '../../tasks/api';
import type { Definition } from './model';
import type { SampleContext } from './samples';

/** A literal id (not a template) or `undefined`. */
function literal(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' && !value.includes('{{') ? value : undefined;
}

/**
 * What a trigger kind's example is made the automation's own with ({@link SampleContext}): the
 * project the trigger's scope names, else the first project of the workspace's home folder; that
 * project's first task; the signed-in person's handle.
 */
export function useSampleContext(workspaceId: string | undefined, trigger: Definition['trigger'] | undefined): SampleContext {
  const me = useMe();
  const scoped = literal((trigger?.scope as { projectId?: unknown } | undefined)?.projectId);
  const projects = useFolderProjects(scoped ? undefined : workspaceId);
  const projectId = scoped ?? projects.data?.[0]?.id;
  const project = useQuery(projectQuery(projectId));
  const task = useQuery(firstTaskQuery(projectId));
  const handle = me.data?.item.handle;
  // Pending until the project is known (or known to be none) and its name and first task are read.
  const loading =
    me.isPending ||
    trigger === undefined ||
    (projectId === undefined ? !scoped && (workspaceId === undefined || projects.isPending) : project.isPending || task.isPending);
  return useMemo(
    () => ({
      loading,
      origin: window.location.origin,
      ...(project.data ? { project: { id: project.data.id, name: project.data.name } } : {}),
      ...(task.data ? { task: { id: task.data.id, text: task.data.text } } : {}),
      ...(handle ? { handle } : {}),
      ...(workspaceId ? { folderId: workspaceId } : {}),
    }),
    [project.data, task.data, handle, workspaceId, loading],
  );
}

/** Where a gallery template's sample is kept for the automation made from it (docs "Samples"). */
const SAMPLE_KEY = (automationId: string) => `taskspace.template-sample.${automationId}`;

/** Keeps the sample a gallery template declares for the automation made from it (in this browser). */
export function keepTemplateSample(automationId: string, sample: Record<string, unknown>): void {
  try {
    localStorage.setItem(SAMPLE_KEY(automationId), JSON.stringify(sample));
  } catch {
    // Storage full or refused: the kind's example serves instead.
  }
}

/** The sample a gallery template declared for `automationId`, if this browser made it. */
export function templateSample(automationId: string | undefined): Record<string, unknown> | undefined {
  if (!automationId) return undefined;
  try {
    const text = localStorage.getItem(SAMPLE_KEY(automationId));
    const value = text ? (JSON.parse(text) as unknown) : undefined;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
