import type { Migration } from '../migrate';

/**
 * Decision links of approvals (docs "Approvals that reach people"): one per approval request,
 * only the hash of its token stored, valid until the approval's timeout (or 7 days), single use.
 */
export const m015ApprovalLinks: Migration = {
  version: 15,
  name: 'approval_links',
  up: `
CREATE TABLE approval_links (
  token_hash  TEXT PRIMARY KEY,
  run_id      TEXT NOT NULL REFERENCES automation_runs(id) ON DELETE CASCADE,
  step_id     TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL,
  used_at     INTEGER
);
CREATE INDEX approval_links_run ON approval_links(run_id);
`,
};
