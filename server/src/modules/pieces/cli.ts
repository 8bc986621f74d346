import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { PIECE_PREFIX, type PieceInfo } from '@taskspace/engine';
import { loadConfig } from '../../config';
import { addedManifest, describePackage, manifestText, piecesDir, readManifest, SHIPPED_MANIFEST, shippedPackages } from './catalogue';

/**
 * `taskspace pieces …` (docs/integrations.md "Adding a piece"): list the pieces of an install,
 * add one into the data directory, or write the shipped manifest again. These commands need no
 * database; an added piece is in the catalogue from the server's next start.
 */
export const PIECES_USAGE = `Usage: taskspace pieces <command> [--data-dir DIR]

  pieces list                 the shipped pieces and those added to the data directory
  pieces add <name|folder>    installs a piece (an npm name such as @activepieces/piece-x[@version],
                              or a folder holding one) into <data-dir>/pieces and describes it
  pieces manifest             writes server/pieces/shipped.json from the installed shipped pieces
`;

type Out = (line: string) => void;

/** The package name a spec names (`@scope/name@1.2.3` → `@scope/name`). */
function packageOf(spec: string): string {
  const at = spec.lastIndexOf('@');
  return at > 0 ? spec.slice(0, at) : spec;
}

/**
 * Installs one piece into `dir` (`<dataDir>/pieces`): a folder is copied to `node_modules/<name>`,
 * an npm spec installed with npm. Returns the package name.
 * @throws Error when npm fails or the folder has no package.json.
 */
function install(dir: string, spec: string): string {
  fs.mkdirSync(dir, { recursive: true });
  if (fs.existsSync(spec) && fs.statSync(spec).isDirectory()) {
    const pkg = JSON.parse(fs.readFileSync(path.join(spec, 'package.json'), 'utf8')) as { name: string };
    const target = path.join(dir, 'node_modules', pkg.name);
    fs.rmSync(target, { recursive: true, force: true });
    fs.cpSync(path.resolve(spec), target, { recursive: true });
    return pkg.name;
  }
  if (!fs.existsSync(path.join(dir, 'package.json')))
    fs.writeFileSync(path.join(dir, 'package.json'), '{"private":true,"dependencies":{}}\n');
  const npm = spawnSync('npm', ['install', '--save-exact', '--no-audit', '--no-fund', '--ignore-scripts', spec], {
    cwd: dir,
    encoding: 'utf8',
  });
  if (npm.status !== 0) throw new Error(`npm install ${spec} failed: ${(npm.stderr || npm.stdout).trim().split('\n').slice(-3).join(' ')}`);
  return packageOf(spec);
}

/** Runs `taskspace pieces <argv>`; returns the exit code (0 ok, 1 failed, 2 usage). */
export function piecesMain(argv: string[], env: NodeJS.ProcessEnv, out: Out, err: Out): number {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { 'data-dir': { type: 'string' } } });
  } catch (error) {
    err(`taskspace: ${(error as Error).message}`);
    return 2;
  }
  const [command, spec] = parsed.positionals;
  const dataDir = parsed.values['data-dir'];
  const config = loadConfig(dataDir ? { ...env, TASKSPACE_DATA_DIR: dataDir } : env);
  const line = (p: PieceInfo, source: string) =>
    out(
      `${p.name}\t${p.packageName}@${p.version}\t${p.actions.length} actions\t${p.triggers.length} triggers\t${p.auth.map((a) => a.type).join('|') || 'no auth'}\t${source}`,
    );
  try {
    switch (command) {
      case 'list': {
        const added = readManifest(addedManifest(config.dataDir));
        const names = new Set(added.map((p) => p.name));
        for (const p of readManifest(SHIPPED_MANIFEST)) if (!names.has(p.name)) line(p, 'shipped');
        for (const p of added) line(p, 'added');
        return 0;
      }
      case 'add': {
        if (!spec) break;
        const dir = piecesDir(config.dataDir);
        const name = install(dir, spec);
        const piece = describePackage(name, [dir]);
        if (!name.startsWith(PIECE_PREFIX))
          err(`taskspace: note: ${name} is not named ${PIECE_PREFIX}*; its kinds are ${piece.name}.<action>`);
        const pieces = readManifest(addedManifest(config.dataDir)).filter((p) => p.name !== piece.name);
        fs.writeFileSync(addedManifest(config.dataDir), manifestText([...pieces, piece]));
        line(piece, 'added');
        err('taskspace: the piece is in the catalogue from the next start of the server');
        return 0;
      }
      case 'manifest': {
        const from = [path.dirname(SHIPPED_MANIFEST)];
        const pieces = shippedPackages().map((name) => describePackage(name, from));
        fs.writeFileSync(SHIPPED_MANIFEST, manifestText(pieces));
        out(`${SHIPPED_MANIFEST}: ${pieces.length} pieces, ${pieces.reduce((n, p) => n + p.actions.length, 0)} actions`);
        return 0;
      }
    }
  } catch (error) {
    err(`taskspace: ${(error as Error).message}`);
    return 1;
  }
  err(PIECES_USAGE);
  return 2;
}
