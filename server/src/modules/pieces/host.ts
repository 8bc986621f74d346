import { ActionError, PiecePool, PieceRunner, pieceKinds, type Http, type KindDeclaration, type PieceHost } from '@taskspace/engine';
import type { Services } from '../../services';
import { openConnection } from '../connections/service';
import { PieceCatalogue } from './catalogue';
import { pieceStore } from './store';

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

  constructor(svc: Services, http: Http) {
    this.catalogue = new PieceCatalogue(svc.config.dataDir);
    const host: PieceHost = {
      entry: (piece) => this.catalogue.entry(piece),
      connection: async (workspaceId, connectionId) => {
        const found = await svc.store.run(openConnection(svc, workspaceId, connectionId));
        if (!found)
          throw new ActionError('CONNECTION_NOT_FOUND', `the workspace has no connection '${connectionId}'`, false, {
            details: { field: 'connectionId' },
          });
        return found;
      },
      store: pieceStore(svc),
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
