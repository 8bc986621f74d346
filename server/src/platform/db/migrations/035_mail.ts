import type { PairedMigration } from '../migrate';

/**
 * Outgoing mail (docs/email.md; issue 39).
 *
 * `mail_outbox`: one row per mail, written in the transaction of what caused it and sent by the
 * mail sender of every `all`/`worker` process (modules/mail/sender.ts). `status`: `pending` (due at
 * `next_attempt_at`, ms), `sending` (claimed by the worker id in `claimed_by`; an attempt is in
 * flight), `sent`, `failed` (given up), `held` (a notification gathered for the digest of
 * `user_id`) and `digested` (carried by a digest mail). `message_id` is the mail's `Message-ID`,
 * the same on every attempt, so a duplicate after a crash is recognisable. `to_json`, `cc_json`:
 * JSON arrays of addresses; `headers_json`: extra headers (`List-Unsubscribe`);
 * `attachments_json`: `[{mediaId, filename}]` read at send time. `link`: the notification's link,
 * for its digest line. `smtp_sealed`: a workspace's own SMTP URL (an `email.send` step's `smtpUrl`),
 * sealed with the secret key; null: the service's. Bodies of mails carrying a link token are cleared once sent.
 *
 * `mail_preferences`: a person's choice per notification kind (`assignment`, `mention`,
 * `approval`, `failure`): `immediate`, `digest` or `off`; no row is `immediate`.
 *
 * The `mail` outbox reader (modules/mail/notifier.ts) starts at the newest event, so an upgraded
 * database mails nothing about its past.
 */
export const m035Mail: PairedMigration = {
  version: 35,
  name: 'mail',
  up: {
    sqlite: `
CREATE TABLE mail_outbox (
  id               TEXT PRIMARY KEY,
  message_id       TEXT NOT NULL UNIQUE,
  kind             TEXT NOT NULL,
  workspace_id     TEXT,
  user_id          TEXT,
  to_json          TEXT NOT NULL,
  cc_json          TEXT NOT NULL DEFAULT '[]',
  subject          TEXT NOT NULL,
  text_body        TEXT NOT NULL,
  html_body        TEXT,
  headers_json     TEXT NOT NULL DEFAULT '{}',
  attachments_json TEXT NOT NULL DEFAULT '[]',
  link             TEXT,
  smtp_sealed      TEXT,
  status           TEXT NOT NULL,
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER NOT NULL,
  claimed_by       TEXT,
  last_error       TEXT,
  created_at       INTEGER NOT NULL,
  sent_at          INTEGER
);
CREATE INDEX mail_outbox_due ON mail_outbox(status, next_attempt_at);
CREATE INDEX mail_outbox_held ON mail_outbox(user_id, created_at) WHERE status = 'held';
CREATE TABLE mail_preferences (
  user_id  TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind     TEXT NOT NULL,
  mode     TEXT NOT NULL,
  PRIMARY KEY (user_id, kind)
);
INSERT INTO outbox_cursors (name, seq) SELECT 'mail', COALESCE(MAX(seq), 0) FROM events WHERE true
  ON CONFLICT (name) DO NOTHING;`,
    postgres: `
CREATE TABLE mail_outbox (
  id               TEXT COLLATE "C" PRIMARY KEY,
  message_id       TEXT COLLATE "C" NOT NULL UNIQUE,
  kind             TEXT COLLATE "C" NOT NULL,
  workspace_id     TEXT COLLATE "C",
  user_id          TEXT COLLATE "C",
  to_json          TEXT COLLATE "C" NOT NULL,
  cc_json          TEXT COLLATE "C" NOT NULL DEFAULT '[]',
  subject          TEXT COLLATE "C" NOT NULL,
  text_body        TEXT COLLATE "C" NOT NULL,
  html_body        TEXT COLLATE "C",
  headers_json     TEXT COLLATE "C" NOT NULL DEFAULT '{}',
  attachments_json TEXT COLLATE "C" NOT NULL DEFAULT '[]',
  link             TEXT COLLATE "C",
  smtp_sealed      TEXT COLLATE "C",
  status           TEXT COLLATE "C" NOT NULL,
  attempts         BIGINT NOT NULL DEFAULT 0,
  next_attempt_at  BIGINT NOT NULL,
  claimed_by       TEXT COLLATE "C",
  last_error       TEXT COLLATE "C",
  created_at       BIGINT NOT NULL,
  sent_at          BIGINT
);
CREATE INDEX mail_outbox_due ON mail_outbox (status, next_attempt_at);
CREATE INDEX mail_outbox_held ON mail_outbox (user_id, created_at) WHERE status = 'held';
CREATE TABLE mail_preferences (
  user_id  TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind     TEXT COLLATE "C" NOT NULL,
  mode     TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (user_id, kind)
);
INSERT INTO outbox_cursors (name, seq) SELECT 'mail', COALESCE(MAX(seq), 0) FROM events WHERE true
  ON CONFLICT (name) DO NOTHING;`,
  },
};
