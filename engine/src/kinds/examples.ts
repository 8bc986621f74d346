/**
 * The placeholders of the trigger kinds' examples (docs "Automations", "Samples"): ids the builder
 * swaps for the automation's own project, task, folder and members, and one instant.
 */
export const EXAMPLE_IDS = {
  projectId: 'example-project',
  nodeId: 'example-task',
  folderId: 'example-folder',
  handle: 'example-member',
  automationId: 'example-automation',
  runId: 'example-run',
} as const;

/** The instant of every example (ISO 8601). */
export const EXAMPLE_TIME = '2026-01-15T09:30:00.000Z';

/** The project variables every task and project event's example has. */
export const PROJECT_EXAMPLE = {
  projectId: EXAMPLE_IDS.projectId,
  projectTitle: 'Launch plan',
  projectLink: `https://taskspace.example/projects/${EXAMPLE_IDS.projectId}`,
} as const;
