/**
 * The variables a step's templates can use (docs "Automations", "Variables"): the trigger's
 * fields for the chosen kind, every earlier step's output, the loop item inside loops, and the
 * run and automation.
 */
const TRIGGER_FIELDS: Record<string, string[]> = {
  'task.added': ['projectId', 'nodeId', 'nodeText', 'projectTitle', 'nodeNote', 'projectLink', 'assignees', 'startDate', 'endDate'],
  'task.completed': [
    'projectId',
    'nodeId',
    'nodeText',
    'projectTitle',
    'projectLink',
    'completedBy',
    'completedAt',
    'triggerTime',
    'assignees',
  ],
  'task.assigned': ['projectId', 'nodeId', 'nodeText', 'projectTitle', 'projectLink', 'assignees', 'added', 'assignedBy'],
  'comment.created': ['projectId', 'projectTitle', 'projectLink', 'nodeId', 'nodeText', 'commentId', 'commentText', 'author', 'createdAt'],
  'task.due': ['projectId', 'nodeId', 'nodeText', 'projectTitle', 'projectLink', 'assignees', 'startDate', 'endDate'],
  'project.created': ['projectId', 'projectTitle', 'projectLink', 'folderId', 'createdBy'],
  'project.completed': ['projectId', 'projectTitle', 'projectLink', 'completedBy', 'completedAt'],
  'project.assigned': ['projectId', 'projectTitle', 'projectLink', 'folderId', 'handle', 'displayName', 'assignedBy'],
  'project.joined': ['projectId', 'projectTitle', 'projectLink', 'folderId', 'handle', 'displayName'],
  'automation.failed': ['automationId', 'automationName', 'runId', 'runLink', 'version', 'error', 'failedAt'],
  'approval.requested': [
    'automationId',
    'automationName',
    'runId',
    'runLink',
    'stepId',
    'message',
    'approvers',
    'decisionLink',
    'timeoutAt',
    'test',
  ],
  schedule: ['scheduledAt', 'firedAt'],
  webhook: ['body', '<any top-level body field>'],
};

interface ActionLike {
  id?: unknown;
  type?: unknown;
  then?: unknown;
  else?: unknown;
  actions?: unknown;
}

function stepIds(actions: unknown, into: { id: string; type: string; inLoop: boolean }[], inLoop: boolean): void {
  if (!Array.isArray(actions)) return;
  for (const a of actions as ActionLike[]) {
    if (typeof a?.id === 'string' && a.id !== '') into.push({ id: a.id, type: String(a.type ?? ''), inLoop });
    stepIds(a?.then, into, inLoop);
    stepIds(a?.else, into, inLoop);
    stepIds(a?.actions, into, inLoop || a?.type === 'loop');
  }
}

/** Every variable of a definition as `{{ … }}` paths, grouped for the picker. */
export function variablesOf(definition: {
  trigger?: { type?: unknown; fields?: unknown };
  actions?: unknown;
}): { group: string; paths: string[] }[] {
  const type = String(definition.trigger?.type ?? '');
  const steps: { id: string; type: string; inLoop: boolean }[] = [];
  stepIds(definition.actions, steps, false);
  // A form's variables are its fields' names.
  const formFields = Array.isArray(definition.trigger?.fields)
    ? (definition.trigger.fields as { name?: unknown }[]).map((f) => String(f?.name ?? '')).filter((n) => n !== '')
    : [];
  const triggerFields = type === 'form' ? formFields : (TRIGGER_FIELDS[type] ?? []);
  const groups = [
    { group: `Trigger (${type || 'none'})`, paths: triggerFields.map((f) => `trigger.${f}`) },
    { group: 'Steps', paths: steps.map((s) => `steps.${s.id}`) },
    { group: 'Run', paths: ['run.id', 'run.createdAt', 'automation.name', 'automation.version'] },
  ];
  if (steps.some((s) => s.inLoop)) groups.splice(2, 0, { group: 'Loop', paths: ['loop.item', 'loop.index', 'loop.count'] });
  return groups.filter((g) => g.paths.length > 0);
}

/**
 * The nested error object the form shows next to a field, from the service's error path
 * (`actions[1].url`, `trigger.cron`).
 */
export function errorAt(field: string, message: string): Record<string, unknown> {
  const parts = field.split(/\.|\[(\d+)\]/).filter((p) => p !== undefined && p !== '');
  const root: Record<string, unknown> = {};
  let node = root;
  for (const part of parts) {
    const next: Record<string, unknown> = {};
    node[part] = next;
    node = next;
  }
  node.__errors = [message];
  return root;
}
