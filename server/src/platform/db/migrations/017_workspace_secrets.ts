import type { Migration } from '../migrate';

/**
 * Workspace secrets for automations (issue 12, docs/automations.md "Secrets"): named values set by
 * Owners, read by templates as `{{ secrets.NAME }}`. Values are sealed with the app's secret key
 * (platform/secret-box.ts, AES-256-GCM) and never returned by any route.
 */
export const m017WorkspaceSecrets: Migration = {
  version: 17,
  name: 'workspace_secrets',
  up: `
CREATE TABLE workspace_secrets (
  workspace_id  TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,
  value_sealed  TEXT NOT NULL,
  created_by    TEXT REFERENCES users(id) ON DELETE SET NULL,
  updated_by    TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, name)
);
`,
};
