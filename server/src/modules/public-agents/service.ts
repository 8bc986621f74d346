import type { Dialect, Query, Sql } from '../../platform/db/query';
import type { Actor } from '../../auth/tokens';
import { requireAgent } from '../../auth/access';
import { ServiceError } from '../../errors';
import { newId } from '../../platform/ids';
import type { Services } from '../../services';
import type { AgentAvatar, CommandMode } from '../agents/agent-data';
import { agentItem } from '../agents/records';
import { mediaForKnowledge, type MediaKind } from '../media/service';

/**
 * Public agent access (spec 4.4 `publicAccess`, `public-agent`; README "Agents, conversations, media and model providers").
 * Enabling gives the agent a public page at `/public/agents/{publicId}` (an unguessable id,
 * not the agent id); disabling (our `DELETE .../publicAccess`) removes it.
 */

/**
 * Public page modes (the real service's values): `template` shows the whole configuration,
 * command prompts included, so visitors can recreate the agent; `chatbot` shows the agent's
 * identity and command names only.
 */
export const PUBLIC_MODES = ['template', 'chatbot'] as const;
/** Public page themes; `auto` follows the visitor's system setting. */
export const THEMES = ['light', 'dark', 'auto'] as const;

/** Values we documented before, still accepted on input and mapped on read: `chat` → `chatbot`, `system` → `auto`. */
export const LEGACY_PREFERENCE_VALUES = { mode: { chat: 'chatbot' }, theme: { system: 'auto' } } as const;

/** Every `preferences.mode` a body may carry. */
export const ACCEPTED_PUBLIC_MODES = [
  ...PUBLIC_MODES,
  ...(Object.keys(LEGACY_PREFERENCE_VALUES.mode) as (keyof typeof LEGACY_PREFERENCE_VALUES.mode)[]),
];
/** Every `preferences.theme` a body may carry. */
export const ACCEPTED_THEMES = [
  ...THEMES,
  ...(Object.keys(LEGACY_PREFERENCE_VALUES.theme) as (keyof typeof LEGACY_PREFERENCE_VALUES.theme)[]),
];

/** `preferences` with legacy `mode`/`theme` values replaced by the current ones. */
export function normalizePreferences<T extends { mode?: string; theme?: string }>(preferences: T): T {
  const out = { ...preferences };
  const legacyMode = LEGACY_PREFERENCE_VALUES.mode as Record<string, string>;
  const legacyTheme = LEGACY_PREFERENCE_VALUES.theme as Record<string, string>;
  if (out.mode !== undefined && legacyMode[out.mode]) out.mode = legacyMode[out.mode];
  if (out.theme !== undefined && legacyTheme[out.theme]) out.theme = legacyTheme[out.theme];
  return out;
}

/** Limits of `preferences.meta`, in characters. */
export const PUBLIC_META_LIMITS = { title: 200, description: 2000 } as const;

/** The public page's own title and description (HTML `<title>` and `<meta name="description">`); empty or absent → the agent's name and description. */
export interface PublicAgentMeta {
  title?: string;
  description?: string;
}

/** Preferences of a public agent. */
export interface PublicAgentPreferences {
  mode: (typeof PUBLIC_MODES)[number];
  /** Whether the public page lists the agent's knowledge (project and media names). */
  canCopyKnowledge: boolean;
  /** Whether the public page omits the "Made with Taskspace" footer. */
  hideBranding: boolean;
  theme: (typeof THEMES)[number];
  /**
   * The real service's "end idle chats automatically" setting. Stored and returned; this version
   * has no public chat, so nothing acts on it yet.
   */
  autoEndChats: boolean;
  /** Present once set (PATCH merges its keys). */
  meta?: PublicAgentMeta;
}

/** Preferences as a `PATCH` body carries them: every key optional, legacy `mode`/`theme` values accepted. */
export type PublicAgentPreferencesInput = Partial<Omit<PublicAgentPreferences, 'mode' | 'theme'>> & {
  mode?: (typeof ACCEPTED_PUBLIC_MODES)[number];
  theme?: (typeof ACCEPTED_THEMES)[number];
};

/** What of the agent a public agent item shows under `data` (the real service's shape). */
export interface PublicAgentData {
  avatar: AgentAvatar;
}

/** A public agent as the API returns it (the real service's `{id, name, data, preferences}`, plus `space_agent_id`). */
export interface PublicAgent {
  /** The public id (in the public URL). */
  id: string;
  /** The agent's name. */
  name: string;
  data: PublicAgentData;
  /** The agent's id (ours). */
  space_agent_id: string;
  preferences: PublicAgentPreferences;
}

/** Preferences of a newly enabled public agent. */
export function defaultPreferences(): PublicAgentPreferences {
  return { mode: 'template', canCopyKnowledge: false, hideBranding: false, theme: 'light', autoEndChats: false };
}

interface PublicRow {
  id: string;
  agent_id: string;
  preferences_json: string;
}

function publicRow(q: Sql, agentId: string): Query<PublicRow | undefined> {
  return q.get<PublicRow>('SELECT id, agent_id, preferences_json FROM public_agents WHERE agent_id = ?', [agentId]);
}

function preferencesOf(row: PublicRow): PublicAgentPreferences {
  return normalizePreferences({ ...defaultPreferences(), ...(JSON.parse(row.preferences_json) as Partial<PublicAgentPreferences>) });
}

/** The API item of a public row, with the agent's name and avatar. */
function* toPublicAgent(q: Sql, row: PublicRow): Query<PublicAgent> {
  const agent = yield* agentItem(q, row.agent_id);
  return {
    id: row.id,
    name: agent.name,
    data: { avatar: agent.data.avatar },
    space_agent_id: row.agent_id,
    preferences: preferencesOf(row),
  };
}

/** The absolute URL of a public agent page. */
export function publicUrlOf(svc: Services, publicId: string): string {
  return svc.links.url(`/public/agents/${encodeURIComponent(publicId)}`);
}

function notEnabled(agentId: string): ServiceError {
  return new ServiceError(404, 'NOT_FOUND', `public access is not enabled for agent '${agentId}'`);
}

/**
 * Enables public access (spec 4.4 `PUT /agents/{agentId}/publicAccess`). Needs Collaborator.
 * Idempotent: an enabled agent keeps its URL and preferences.
 * @returns the absolute public URL.
 * @throws ServiceError 404, 403.
 */
export function* enablePublicAccess(svc: Services, actor: Actor, agentId: string, q: Sql = svc.store.sql): Query<{ publicUrl: string }> {
  return yield* q.transaction(function* (tx) {
    yield* requireAgent(tx, actor, agentId, 'Collaborator', 'changing public access');
    let row = yield* publicRow(tx, agentId);
    if (!row) {
      const now = svc.clock.now();
      yield* tx.run('INSERT INTO public_agents (id, agent_id, preferences_json, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [
        newId(),
        agentId,
        JSON.stringify(defaultPreferences()),
        now,
        now,
      ]);
      row = (yield* publicRow(tx, agentId))!;
    }
    return { publicUrl: publicUrlOf(svc, row.id) };
  });
}

/**
 * Disables public access (`DELETE /agents/{agentId}/publicAccess`, ours). Needs Collaborator.
 * The public URL stops working; enabling again issues a new URL with default preferences.
 * Idempotent: disabling a private agent succeeds.
 * @throws ServiceError 404, 403.
 */
export function* disablePublicAccess(svc: Services, actor: Actor, agentId: string, q: Sql = svc.store.sql): Query<void> {
  yield* q.transaction(function* (tx) {
    yield* requireAgent(tx, actor, agentId, 'Collaborator', 'changing public access');
    yield* tx.run('DELETE FROM public_agents WHERE agent_id = ?', [agentId]);
  });
}

/**
 * The public agent and its URL (spec 4.4 `GET /agents/{agentId}/public-agent`). Needs Viewer.
 * @throws ServiceError 404 (agent unknown/outside the caller's workspaces, or not public).
 */
export function* getPublicAgent(
  svc: Services,
  actor: Actor,
  agentId: string,
  q: Sql = svc.store.sql,
): Query<{ item: PublicAgent; publicUrl: string }> {
  yield* requireAgent(q, actor, agentId, 'Viewer');
  const row = yield* publicRow(q, agentId);
  if (!row) throw notEnabled(agentId);
  return { item: yield* toPublicAgent(q, row), publicUrl: publicUrlOf(svc, row.id) };
}

/**
 * Merges preferences into a public agent (spec 4.4 `PATCH /agents/{agentId}/public-agent`).
 * Needs Collaborator. Absent keys keep their value; `meta` merges key by key too.
 * @throws ServiceError 404 (agent unknown/outside the caller's workspaces, or not public), 403.
 */
export function* updatePublicAgent(
  svc: Services,
  actor: Actor,
  agentId: string,
  preferences: PublicAgentPreferencesInput,
  q: Sql = svc.store.sql,
): Query<PublicAgent> {
  return yield* q.transaction(function* (tx) {
    yield* requireAgent(tx, actor, agentId, 'Collaborator', 'changing public agent preferences');
    const row = yield* publicRow(tx, agentId);
    if (!row) throw notEnabled(agentId);
    const merged = preferencesOf(row);
    const wanted = normalizePreferences(preferences);
    for (const key of ['mode', 'canCopyKnowledge', 'hideBranding', 'theme', 'autoEndChats'] as const) {
      if (wanted[key] !== undefined) (merged as unknown as Record<string, unknown>)[key] = wanted[key];
    }
    if (wanted.meta !== undefined) merged.meta = { ...merged.meta, ...wanted.meta };
    yield* tx.run('UPDATE public_agents SET preferences_json = ?, updated_at = ? WHERE id = ?', [
      JSON.stringify(merged),
      svc.clock.now(),
      row.id,
    ]);
    return yield* toPublicAgent(tx, (yield* publicRow(tx, agentId))!);
  });
}

/** What an anonymous visitor of a public agent page sees. */
export interface PublicAgentView {
  id: string;
  name: string;
  /** The real service's `data` (the avatar); `avatar` at the top level is kept for our older clients. */
  data: PublicAgentData;
  description: string;
  tone: string;
  language: string;
  avatar: AgentAvatar;
  /** Prompts only in `template` mode. */
  commands: { name: string; mode: CommandMode; prompt?: string }[];
  /** Only when `canCopyKnowledge`. */
  knowledge?: { projects: { id: string; name: string }[]; medias: { id: string; name: string; kind: MediaKind }[] };
  preferences: PublicAgentPreferences;
}

/** The query of {@link projectNames}, one JSON array of project ids as its parameter. */
const PROJECT_NAMES_SQL: Readonly<Record<Dialect, string>> = {
  sqlite: 'SELECT id, name FROM projects WHERE id IN (SELECT value FROM json_each(?))',
  postgres: 'SELECT id, name FROM projects WHERE id IN (SELECT jsonb_array_elements_text(?::jsonb))',
};

/** `{id, name}` of the projects `projectIds` (in that order, unknown ids skipped), loaded with one query. */
function* projectNames(q: Sql, projectIds: string[]): Query<{ id: string; name: string }[]> {
  const rows = yield* q.all<{ id: string; name: string }>(PROJECT_NAMES_SQL[q.dialect], [JSON.stringify(projectIds)]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return projectIds.map((id) => byId.get(id)).filter((p): p is { id: string; name: string } => p !== undefined);
}

/**
 * The public page of an agent, for anyone holding its public id (no authentication).
 * @throws ServiceError 404 when no agent is public under that id.
 */
export function* publicAgentView(svc: Services, publicId: string, q: Sql = svc.store.sql): Query<PublicAgentView> {
  const row = yield* q.get<PublicRow>('SELECT id, agent_id, preferences_json FROM public_agents WHERE id = ?', [publicId]);
  if (!row) throw new ServiceError(404, 'NOT_FOUND', 'no public agent at this address');
  const preferences = preferencesOf(row);
  const agent = yield* agentItem(q, row.agent_id);
  const view: PublicAgentView = {
    id: row.id,
    name: agent.name,
    data: { avatar: agent.data.avatar },
    description: agent.data.description,
    tone: agent.data.tone,
    language: agent.data.language,
    avatar: agent.data.avatar,
    commands: agent.data.commands.map((c) =>
      preferences.mode === 'template' ? { name: c.name, mode: c.mode, prompt: c.prompt } : { name: c.name, mode: c.mode },
    ),
    preferences,
  };
  if (preferences.canCopyKnowledge) {
    view.knowledge = {
      projects: yield* projectNames(q, agent.knowledge.projects),
      medias: (yield* mediaForKnowledge(svc, agent.knowledge.medias, q)).map((m) => ({ id: m.id, name: m.name, kind: m.kind })),
    };
  }
  return view;
}
