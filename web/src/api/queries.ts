/**
 * The shared hooks the builder (`automations/Builder.tsx`, `automations/builder/`) imports from
 * here, kept by name over the feature `api.ts` modules that now hold them (docs/architecture.md
 * "Web data access"). New code imports the feature modules directly.
 */
export { useMe } from '../profile/api';
export { useFolderProjects, useProject } from '../projects/api';
export { useProjectTasks } from '../tasks/api';
export { useFolders, useWorkspaces } from '../workspaces/api';
