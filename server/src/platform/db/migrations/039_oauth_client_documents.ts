import type { PairedMigration } from '../migrate';

/**
 * Client ID Metadata Documents (docs/oauth.md "Clients identified by a URL"; issue 38): a client
 * whose `client_id` is an https URL is kept in `oauth_clients` under that URL as its id (a
 * self-registered public client: no workspace, registration `dynamic`), so grants, codes and
 * tokens refer to it as to any client. This table records when its document was fetched and
 * until when (ms) that copy is used; `/oauth/authorize` fetches it again after `expires_at`.
 */
export const m039OAuthClientDocuments: PairedMigration = {
  version: 39,
  name: 'oauth_client_documents',
  up: {
    sqlite: `
CREATE TABLE oauth_client_documents (
  client_id   TEXT PRIMARY KEY REFERENCES oauth_clients(id) ON DELETE CASCADE,
  fetched_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL
);`,
    postgres: `
CREATE TABLE oauth_client_documents (
  client_id   TEXT COLLATE "C" PRIMARY KEY REFERENCES oauth_clients(id) ON DELETE CASCADE,
  fetched_at  BIGINT NOT NULL,
  expires_at  BIGINT NOT NULL
);`,
  },
};
