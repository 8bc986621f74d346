import { ConfigError } from './config-values';

/** A provider app (OAuth 2.0 client) registered with an outside service, for a piece's OAuth2 connections. */
export interface PieceOAuthApp {
  clientId: string;
  clientSecret: string;
}

const VARIABLE = /^TASKSPACE_PIECE_OAUTH_([A-Z0-9_]+)_CLIENT_(ID|SECRET)$/;

/**
 * The instance's provider apps for OAuth2 pieces (docs/integrations.md "OAuth2 apps"), by piece
 * short name: `TASKSPACE_PIECE_OAUTH_<PIECE>_CLIENT_ID` and `TASKSPACE_PIECE_OAUTH_<PIECE>_CLIENT_SECRET`,
 * where `<PIECE>` is the piece's short name in capitals with `-` as `_` (`google-forms` →
 * `GOOGLE_FORMS`). An app a workspace's Owner registers replaces the instance's for that workspace.
 * @throws ConfigError when one of the pair is set without the other.
 */
export function pieceOAuthApps(env: NodeJS.ProcessEnv): Record<string, PieceOAuthApp> {
  const halves: Record<string, { id?: string; secret?: string }> = {};
  for (const [name, value] of Object.entries(env)) {
    const match = VARIABLE.exec(name);
    if (!match || !value) continue;
    const piece = match[1]!.toLowerCase().replace(/_/g, '-');
    const entry = (halves[piece] ??= {});
    if (match[2] === 'ID') entry.id = value.trim();
    else entry.secret = value;
  }
  const apps: Record<string, PieceOAuthApp> = {};
  for (const [piece, { id, secret }] of Object.entries(halves)) {
    if (!id || !secret) {
      const stem = `TASKSPACE_PIECE_OAUTH_${piece.toUpperCase().replace(/-/g, '_')}`;
      throw new ConfigError(`${stem}_CLIENT_ID and ${stem}_CLIENT_SECRET go together: set both or neither`);
    }
    apps[piece] = { clientId: id, clientSecret: secret };
  }
  return apps;
}
