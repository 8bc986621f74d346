import fs from 'node:fs';
import path from 'node:path';
import { describePiece, MANIFEST_FORMAT, PIECE_PREFIX, type PieceInfo, type PieceManifest } from '@taskspace/engine';

/**
 * Where the server's pieces come from (docs/integrations.md "What ships", "Adding a piece"): the
 * pinned set shipped as dependencies of the server package, described once in
 * `server/pieces/shipped.json` (checked by `test/pieces/shipped.test.ts` against the installed
 * packages), and the pieces an Owner added with `taskspace pieces add`, installed into
 * `<dataDir>/pieces/` with their own manifest. Reading a manifest loads no piece.
 */

/** The shipped manifest (beside `src/` and `dist/` in the server package). */
export const SHIPPED_MANIFEST = path.join(__dirname, '..', '..', '..', 'pieces', 'shipped.json');

/** The folder of added pieces inside a data directory. */
export const piecesDir = (dataDir: string): string => path.join(dataDir, 'pieces');

/** The manifest of the added pieces of a data directory. */
export const addedManifest = (dataDir: string): string => path.join(piecesDir(dataDir), 'manifest.json');

/** A manifest file's pieces; none when it is absent. @throws Error for a manifest of another format. */
export function readManifest(file: string): PieceInfo[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const manifest = JSON.parse(text) as PieceManifest;
  if (manifest.format !== MANIFEST_FORMAT) throw new Error(`${file}: manifest format ${manifest.format}, expected ${MANIFEST_FORMAT}`);
  return manifest.pieces;
}

/** The npm names of the shipped pieces: the server package's `@activepieces/piece-*` dependencies. */
export function shippedPackages(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  return Object.keys(pkg.dependencies ?? {})
    .filter((name) => name.startsWith(PIECE_PREFIX))
    .sort();
}

/**
 * Loads and describes one installed piece package (this `require`s it: for `pieces add` and the
 * manifest script, never at start-up).
 * Old-framework builds (`@activepieces/framework`, 2023) are described too: their connection is
 * a property of each action (a secret text to fill with `{{ secrets.NAME }}`); actions that need
 * the old OAuth2 property are left out.
 * @throws Error when it is not a piece.
 */
export function describePackage(packageName: string, from: string[]): PieceInfo {
  const main = require.resolve(packageName, { paths: from });
  let dir = path.dirname(main);
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    version: string;
    dependencies?: Record<string, string>;
  };
  const deps = pkg.dependencies ?? {};
  const legacy = deps['@activepieces/pieces-framework'] !== undefined || deps['@activepieces/framework'] !== undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- describing a piece means loading it, once
  const mod: unknown = require(main);
  return describePiece(packageName, pkg.version, mod, legacy);
}

/** A manifest of `pieces`, as written to a file. */
export function manifestText(pieces: PieceInfo[]): string {
  const manifest: PieceManifest = { format: MANIFEST_FORMAT, pieces: [...pieces].sort((a, b) => a.name.localeCompare(b.name)) };
  return `${JSON.stringify(manifest)}\n`;
}

/** The pieces of one server: shipped, then added (an added piece of a shipped name replaces it), each with the module to load. */
export class PieceCatalogue {
  private readonly byName = new Map<string, PieceInfo>();
  private readonly entries = new Map<string, string>();

  constructor(dataDir: string) {
    for (const piece of readManifest(SHIPPED_MANIFEST)) this.byName.set(piece.name, piece);
    for (const piece of readManifest(addedManifest(dataDir))) {
      this.byName.set(piece.name, piece);
      this.entries.set(piece.name, piecesDir(dataDir));
    }
  }

  /** Every piece, by name. */
  all(): PieceInfo[] {
    return [...this.byName.values()];
  }

  /** The piece of a short name. */
  find(name: string): PieceInfo | undefined {
    return this.byName.get(name);
  }

  /** The module a worker loads for `piece` (resolved, not loaded). */
  entry(piece: PieceInfo): string {
    const from = this.entries.get(piece.name);
    return require.resolve(piece.packageName, from ? { paths: [from] } : undefined);
  }
}
