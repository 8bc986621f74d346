import type { Query, Sql } from '../../platform/db/query';
import type { GuardedHttp } from '../../platform/guarded-http';
import type { Services } from '../../services';
import { findClient, type ClientRecord } from './clients';
import { fetchMetadataDocument, MetadataDocumentError, type MetadataDocument } from './metadata-document';

/**
 * Clients identified by a URL (docs/oauth.md "Clients identified by a URL"): their fetched
 * metadata documents, kept as clients in `oauth_clients` under the URL with the copy's lifetime in
 * `oauth_client_documents` (migration 039).
 */

/** The stored client of `clientId` while its document's copy is still fresh at `now`, or undefined. */
export function* freshDocumentClient(q: Sql, clientId: string, now: number): Query<ClientRecord | undefined> {
  const copy = yield* q.get<{ expiresAt: number }>('SELECT expires_at AS "expiresAt" FROM oauth_client_documents WHERE client_id = ?', [
    clientId,
  ]);
  if (!copy || Number(copy.expiresAt) <= now) return undefined;
  return yield* findClient(q, clientId);
}

/**
 * Stores a fetched document as the public client `clientId` (created, or its name and redirect
 * URIs replaced: its grants and tokens stay), and the copy's fetch time and expiry.
 */
export function* storeDocumentClient(q: Sql, clientId: string, document: MetadataDocument, now: number): Query<void> {
  yield* q.transaction(function* (tx) {
    yield* tx.run(
      `INSERT INTO oauth_clients (id, workspace_id, name, redirect_uris, type, secret_hash, created_by, created_at, registration)
       VALUES (?, NULL, ?, ?, 'public', NULL, NULL, ?, 'dynamic')
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, redirect_uris = excluded.redirect_uris
       WHERE oauth_clients.workspace_id IS NULL`,
      [clientId, document.name, JSON.stringify(document.redirectUris), now],
    );
    yield* tx.run(
      `INSERT INTO oauth_client_documents (client_id, fetched_at, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (client_id) DO UPDATE SET fetched_at = excluded.fetched_at, expires_at = excluded.expires_at`,
      [clientId, now, now + document.lifetimeMs],
    );
  });
}

/**
 * Makes sure the client named by the URL `clientId` is stored from a fresh copy of its document,
 * and that the document lists `redirectUri` (when given). A fresh stored copy that does not list
 * it is fetched again once (the client may have just added it).
 * @throws MetadataDocumentError when the document cannot be fetched or used, or does not list `redirectUri`.
 */
export async function resolveDocumentClient(
  svc: Services,
  http: GuardedHttp,
  clientId: string,
  redirectUri: string | undefined,
): Promise<void> {
  const { store, clock } = svc;
  const cached = await store.run(freshDocumentClient(store.sql, clientId, clock.now()));
  const lists = (uris: readonly string[]) => redirectUri === undefined || uris.includes(redirectUri);
  if (cached && lists(cached.redirectUris)) return;
  const document = await fetchMetadataDocument(http, clientId, svc.addressPolicy);
  if (!lists(document.redirectUris))
    throw new MetadataDocumentError(`the redirect_uri ${redirectUri} is not listed in the metadata document's redirect_uris`);
  await store.run(storeDocumentClient(store.sql, clientId, document, clock.now()));
}
