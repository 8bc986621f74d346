/**
 * Every query key of the web app, one factory per feature (docs/architecture.md "Web data access").
 * A feature's `api.ts` builds its `queryOptions` with these keys, and whatever refetches or writes
 * the cache (a mutation's `onSettled`, the live stream in `live.ts`) names the data through them, so
 * a key is spelled once. A factory without arguments (`all`) is the prefix of its feature's keys:
 * invalidating it refetches every query under it (TanStack Query matches keys by prefix).
 *
 * This module imports nothing, so any module may use it without a loop.
 */

/** The signed-in person and their own settings (profile, account). */
export const accountKeys = {
  /** `GET /auth/session` → the person (`useMe`). */
  me: () => ['me'] as const,
  sessions: () => ['sessions'] as const,
  tokens: () => ['tokens'] as const,
  oauthGrants: () => ['oauth-grants'] as const,
  mailPreferences: () => ['mail-preferences'] as const,
};

/** Workspaces, their folders, members, invitations, secrets and OAuth apps. */
export const workspaceKeys = {
  all: () => ['workspaces'] as const,
  folders: (workspaceId: string | undefined) => ['folders', workspaceId] as const,
  /** Every workspace's members (a person's name changed). */
  allMembers: () => ['members'] as const,
  members: (workspaceId: string | undefined) => ['members', workspaceId] as const,
  invitations: (workspaceId: string) => ['invitations', workspaceId] as const,
  /** One invitation read by its link's token (before the person is a member). */
  invitation: (token: string) => ['invitation', token] as const,
  secrets: (workspaceId: string) => ['secrets', workspaceId] as const,
  oauthClients: (workspaceId: string) => ['oauth-clients', workspaceId] as const,
};

/** Projects, their templates, share links, custom fields and who is present. */
export const projectKeys = {
  /** Every folder's project list. */
  lists: () => ['projects'] as const,
  inFolder: (folderId: string | undefined) => ['projects', folderId] as const,
  one: (projectId: string | undefined) => ['project', projectId] as const,
  templates: (folderId: string | undefined) => ['templates', folderId] as const,
  share: (projectId: string) => ['share', projectId] as const,
  fields: (projectId: string) => ['fields', projectId] as const,
  presence: (projectId: string) => ['presence', projectId] as const,
  /** The Ctrl/Cmd+K palette's projects of every workspace. */
  palette: () => ['palette-projects'] as const,
};

/** A project's tasks and the parts of one task (assignees, date, note, field values, comments). */
export const taskKeys = {
  /** The project's outline (every task); also the prefix of its summaries and matches. */
  of: (projectId: string) => ['tasks', projectId] as const,
  summaries: (projectId: string) => ['tasks', projectId, 'summaries'] as const,
  matches: (projectId: string, filter: object) => ['tasks', projectId, 'matches', filter] as const,
  /** The project's first task (the builder's sample context). */
  first: (projectId: string | undefined) => ['tasks', projectId, 'first'] as const,
  /** The project's first 500 tasks as the builder's task picker offers them. */
  picker: (projectId: string | undefined) => ['picker-tasks', projectId] as const,
  trash: (projectId: string) => ['trash', projectId] as const,
  assignees: (taskId: string) => ['task-assignees', taskId] as const,
  date: (taskId: string) => ['task-date', taskId] as const,
  note: (taskId: string) => ['task-note', taskId] as const,
  /** Every task's field values (a field was defined, renamed or deleted). */
  allFields: () => ['task-fields'] as const,
  fields: (taskId: string) => ['task-fields', taskId] as const,
  comments: (taskId: string) => ['task-comments', taskId] as const,
};

/** Automations, their versions, runs and approvals. */
export const automationKeys = {
  /** Every workspace's automation list. */
  lists: () => ['automations'] as const,
  inWorkspace: (workspaceId: string | undefined) => ['automations', workspaceId] as const,
  one: (automationId: string) => ['automation', automationId] as const,
  /** Whether its piece trigger is registered (under {@link one}: refreshed with the automation). */
  trigger: (automationId: string) => ['automation', automationId, 'trigger'] as const,
  versions: (automationId: string) => ['versions', automationId] as const,
  version: (automationId: string, version: number) => ['version', automationId, version] as const,
  /** An automation's run lists (any length). */
  runs: (automationId: string) => ['runs', automationId] as const,
  runList: (automationId: string, limit: number) => ['runs', automationId, limit] as const,
  run: (runId: string) => ['run', runId] as const,
  /** The runs screen's lists, whatever their filters. */
  workspaceRuns: () => ['workspace-runs'] as const,
  workspaceRunList: (filter: { workspaceId?: string; automationId: string; status: string; from?: string }) =>
    ['workspace-runs', filter.workspaceId, filter.automationId, filter.status, filter.from] as const,
  /** Every workspace's approvals inbox. */
  approvals: () => ['approvals'] as const,
  approvalsIn: (workspaceId: string) => ['approvals', workspaceId] as const,
  decisionLink: (token: string) => ['decision-link', token] as const,
  /** The kinds catalogue (`GET /automations/kinds`). */
  kinds: () => ['automation-kinds'] as const,
  /** The automation JSON Schema (`GET /automations/schema`). */
  schema: () => ['automation-schema'] as const,
  /** A piece's dynamic dropdown choices for a step (`POST /automations/kinds/{type}/options`). */
  kindOptions: (p: { type: string | undefined; prop: string; connectionId: string | undefined; props: object }) =>
    ['kind-options', p.type, p.prop, p.connectionId, JSON.stringify(p.props)] as const,
};

/** A workspace's piece connections, its OAuth apps and what a piece's connection form asks. */
export const connectionKeys = {
  /** Every connection list of the workspace (the Connections screen's and the builder pickers'). */
  all: (workspaceId: string | undefined) => ['connections', workspaceId] as const,
  /** The workspace's connections of one piece (the builder's connection picker; all pieces without one). */
  ofPiece: (workspaceId: string | undefined, piece: string | undefined) => ['connections', workspaceId, piece] as const,
  apps: (workspaceId: string) => ['oauth2-apps', workspaceId] as const,
  auth: (piece: string) => ['piece-auth', piece] as const,
};

/** Agents and their conversations and public pages. */
export const agentKeys = {
  /** Every folder's agent list. */
  lists: () => ['agents'] as const,
  inFolder: (folderId: string | undefined) => ['agents', folderId] as const,
  one: (agentId: string) => ['agent', agentId] as const,
  conversations: (agentId: string) => ['conversations', agentId] as const,
  /** The agent's public page, whether it is on or not. */
  publicPage: (agentId: string) => ['public-agent', agentId] as const,
  publicPageWhen: (agentId: string, on: boolean) => ['public-agent', agentId, on] as const,
};

/** Media of a folder. */
export const mediaKeys = {
  inFolder: (folderId: string | undefined) => ['media', folderId] as const,
};

/** Webhooks (API v2), their deliveries and event subscriptions. */
export const webhookKeys = {
  all: () => ['webhooks'] as const,
  subscriptions: () => ['subscriptions'] as const,
  deliveries: (webhookId: string) => ['deliveries', webhookId] as const,
};

/** Every feature's key factories together. */
export const keys = {
  account: accountKeys,
  workspaces: workspaceKeys,
  projects: projectKeys,
  tasks: taskKeys,
  automations: automationKeys,
  connections: connectionKeys,
  agents: agentKeys,
  media: mediaKeys,
  webhooks: webhookKeys,
};
