import type { PairedMigration } from '../migrate';

/**
 * Presence on projects (docs "API", "Presence"; issue 29): one row per open live stream that
 * watches a project (`GET /api/v1/live?projectId=…`, modules/live/presence.ts), written by the
 * process serving the stream, so every process sees who has the project open. `id` is the
 * stream's own id, `opened_at` when it opened and `seen_at` its last heartbeat (ms epoch), renewed
 * every `TASKSPACE_PRESENCE_HEARTBEAT_MS`. A row is deleted when its stream closes; a row whose
 * `seen_at` is older than two heartbeats (its process died) is ignored and then deleted. No
 * foreign keys: a row outlives its project or person by at most two heartbeats, and the reads join
 * `projects` and `workspace_members`, so it is never shown meanwhile.
 */
export const m030LivePresence: PairedMigration = {
  version: 30,
  name: 'live_presence',
  up: {
    sqlite: `
CREATE TABLE live_presence (
  id          TEXT PRIMARY KEY,
  project_id  TEXT NOT NULL,
  user_id     TEXT NOT NULL,
  opened_at   INTEGER NOT NULL,
  seen_at     INTEGER NOT NULL
);
CREATE INDEX live_presence_project ON live_presence(project_id, seen_at);
CREATE INDEX live_presence_seen_at ON live_presence(seen_at);`,
    postgres: `
CREATE TABLE live_presence (
  id          TEXT COLLATE "C" PRIMARY KEY,
  project_id  TEXT COLLATE "C" NOT NULL,
  user_id     TEXT COLLATE "C" NOT NULL,
  opened_at   BIGINT NOT NULL,
  seen_at     BIGINT NOT NULL
);
CREATE INDEX live_presence_project ON live_presence (project_id, seen_at);
CREATE INDEX live_presence_seen_at ON live_presence (seen_at);`,
  },
};
