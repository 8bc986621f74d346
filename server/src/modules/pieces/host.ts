import {
  ActionError,
  PiecePool,
  PieceRunner,
  pieceKinds,
  type Http,
  type KindDeclaration,
  type PieceHost,
  type ResolvedConnection,
} from '@taskspace/engine';
import type { Services } from '../../services';
import { openFresh } from '../connections/oauth-tokens';
import { PieceCatalogue } from './catalogue';
import { pieceFiles } from './files';
import { pieceStore } from './store';

async function opened(found: Promise<ResolvedConnection | undefined>, connectionId: string): Promise<ResolvedConnection> {
  const connection = await found;
  if (!connection)
    throw new ActionError('CONNECTION_NOT_FOUND', `the workspace has no connection '${connectionId}'`, false, {
      details: { field: 'connectionId' },
    });
  return connection;
}

/**
 * The server's pieces (docs/integrations.md): the catalogue (shipped and added manifests), the
 * worker pool that runs them, and the runner wired to the server's ports — connections opened
 * from the database, the piece store, the public URL and the guarded HTTP client of the HTTP
 * step. Owned by the automation runtime; {@link ServerPieces.close} ends the workers.
 */
export class ServerPieces {
  readonly catalogue: PieceCatalogue;
  readonly runner: PieceRunner;
  private readonly pool = new PiecePool();

  /** @param http the guarded HTTP client of the HTTP step: pieces' requests and OAuth2 token requests go through it. */
  constructor(
    svc: Services,
    readonly http: Http,
  ) {
    this.catalogue = new PieceCatalogue(svc.config.dataDir);
    const host: PieceHost = {
      entry: (piece) => this.catalogue.entry(piece),
      // OAuth2 tokens are refreshed here, before they expire and once on a 401 (pieces never refresh).
      connection: (workspaceId, connectionId) => opened(openFresh(svc, http, workspaceId, connectionId), connectionId),
      refresh: (workspaceId, connectionId, stale) => opened(openFresh(svc, http, workspaceId, connectionId, stale), connectionId),
      store: pieceStore(svc),
      files: pieceFiles(svc),
      ...(svc.config.publicUrl ? { publicUrl: svc.config.publicUrl } : {}),
      http,
      pool: this.pool,
    };
    this.runner = new PieceRunner(host);
  }

  /** The action kinds of every piece, skipping types in `taken` (the built-in kinds). */
  kinds(taken: ReadonlySet<string>): KindDeclaration[] {
    return pieceKinds({ format: 1, pieces: this.catalogue.all() }, this.runner, taken);
  }

  /** Ends the piece workers. */
  close(): Promise<void> {
    return this.pool.close();
  }
}
