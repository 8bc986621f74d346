#!/usr/bin/env node
/**
 * The published n8n community package is `packages/n8n-nodes-taskspace/`: its own package.json (the
 * manifest that is published; no workspace fields, no lifecycle scripts, no invented metadata),
 * and, written here before packing, dist/ (built at the repository root by `n8n-node build`),
 * README.md (a copy of docs/n8n-package.md) and LICENSE. Its nodes/, credentials/ and icons/ are
 * symlinks to the sources at the root, so that n8n's scanner, which lints the source of the
 * package it finds by name in the repository, lints the real sources. The repository root's
 * package.json is the npm workspace of the service (private, another name).
 *
 * `n8n-node lint` runs in a staged copy in `.n8n-host/package/` (ESLint does not enter symlinked
 * folders; `lint --fix` copies fixed files back): the package's manifest, README, LICENSE, the
 * stock eslint.config.mjs and tsconfig.json, and copies of the sources.
 *
 * Publishing metadata (docs/n8n-package.md, "Publishing") is read from one place, which only the
 * package's owner fills, in a commit: the published manifest's `author` (name and email),
 * `homepage` and `repository`. Nothing here fills or invents them.
 *
 * Usage:
 *   node test/n8n-host/package-stage.mjs lint [--fix]   `n8n-node lint` on the staged sources
 *   node test/n8n-host/package-stage.mjs pack           (after `n8n-node build`) write dist/, README and
 *                                                      LICENSE into the package, `npm pack` it, check the
 *                                                      tarball's files, lint it, run n8n's scanner on it
 *                                                      (the published files and the source it finds);
 *                                                      while publishing metadata is missing it says the
 *                                                      tarball is NOT PUBLISHABLE (and exits 0)
 *   node test/n8n-host/package-stage.mjs pack --release the same with no rule set aside: fails (exit 1, at
 *                                                      once when publishing metadata is missing) unless
 *                                                      the tarball is publishable
 *   node test/n8n-host/package-stage.mjs metadata [FILE] the publishing metadata of a manifest (default
 *                                                      the package's): exit 1 and what is missing
 * Exit code 0 on success; prints what failed otherwise.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cache = path.join(root, '.n8n-host');
const stage = path.join(cache, 'package');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/** The folder of the published package. */
export const packageDir = path.join(root, 'packages', 'n8n-nodes-taskspace');
const PACKAGE_NAME = 'n8n-nodes-taskspace';

/** Source folders linted in the stage. */
const SOURCE_DIRS = ['nodes', 'credentials', 'icons'];

/** Copies files that `lint --fix` changed in the stage back to the repository. */
function copyBackFixes() {
  const walk = (dir) =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  for (const dir of SOURCE_DIRS) {
    if (!fs.existsSync(path.join(stage, dir))) continue;
    for (const staged of walk(path.join(stage, dir))) {
      const original = path.join(root, path.relative(stage, staged));
      const content = fs.readFileSync(staged);
      if (!fs.existsSync(original) || !content.equals(fs.readFileSync(original))) {
        fs.writeFileSync(original, content);
        console.log(`fixed ${path.relative(root, original)}`);
      }
    }
  }
}

/** The published manifest (packages/n8n-nodes-taskspace/package.json). */
export function publishManifest() {
  return JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
}

/** The community lint rule each publishing field answers to (the scanner applies the same rules). */
const FIELD_RULES = {
  'author.name': '@n8n/community-nodes/valid-author',
  'author.email': '@n8n/community-nodes/valid-author',
  homepage: '@n8n/community-nodes/require-homepage',
};

function isHttpsUrl(value) {
  try {
    return typeof value === 'string' && new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * What keeps `manifest` from being published, by field: `author.name` and `author.email` (n8n's
 * rule `valid-author`; the object form or npm's `Name <email>` string), `homepage` (an https URL,
 * rule `require-homepage`) and `repository` (its URL: n8n verifies a package by npm provenance from
 * its public repository). Empty when publishable.
 * @returns {{field: string, rule?: string, message: string}[]}
 */
export function publishMetadataProblems(manifest) {
  const problems = [];
  const author = manifest.author;
  const person =
    typeof author === 'string'
      ? { name: author.replace(/[<(].*$/, '').trim(), email: /<([^>]*)>/.exec(author)?.[1] }
      : author && typeof author === 'object'
        ? author
        : {};
  const missing = (field, message) => problems.push({ field, rule: FIELD_RULES[field], message });
  if (!(typeof person.name === 'string' && person.name.trim())) missing('author.name', 'author.name is missing');
  if (!(typeof person.email === 'string' && /^[^\s@<>]+@[^\s@<>]+$/.test(person.email.trim())))
    missing('author.email', 'author.email is missing');
  if (!isHttpsUrl(manifest.homepage)) missing('homepage', 'homepage (an https URL) is missing');
  const repository = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  if (!(typeof repository === 'string' && repository.trim())) missing('repository', 'repository.url is missing');
  return problems;
}

/** One line saying what is missing, and where the owner fills it. */
function describeMetadataProblems(problems) {
  const parts = problems.map((p) => (p.rule ? `${p.message} (n8n rule ${p.rule.replace('@n8n/community-nodes/', '')})` : p.message));
  return `${parts.join('; ')}. The package's owner fills them in packages/n8n-nodes-taskspace/package.json (docs/n8n-package.md, "Publishing")`;
}

/**
 * The community rules whose findings the checks set aside: those of the publishing fields still
 * missing (nothing in release mode). The checks report every other finding; the missing metadata
 * itself is reported as "NOT PUBLISHABLE", and `pack --release` fails on it.
 */
function setAsideRules(release) {
  if (release) return new Set();
  return new Set(
    publishMetadataProblems(publishManifest())
      .map((p) => p.rule)
      .filter(Boolean),
  );
}

/** True when every error finding of an ESLint report belongs to a rule set aside. */
function onlySetAside(report, rules) {
  const plain = report.replace(/\x1b\[[0-9;]*m/g, '');
  const errors = plain.split('\n').filter((l) => /^\s+\d+:\d+\s+error\s/.test(l));
  return errors.length > 0 && rules.size > 0 && errors.every((l) => [...rules].some((rule) => l.includes(rule)));
}

function noteSetAside(rules) {
  console.log(
    `note: ${[...rules].join(', ')} set aside while the publishing metadata is missing: NOT PUBLISHABLE (docs/n8n-package.md, "Publishing").`,
  );
}

function linkOrCopy(from, to, { copy = false } = {}) {
  if (!fs.existsSync(from)) return;
  if (copy) fs.cpSync(from, to, { recursive: true });
  else fs.symlinkSync(path.relative(path.dirname(to), from), to);
}

/** Recreates the lint stage; `withDist` copies the built dist/ (run `n8n-node build` first). */
export function makeStage({ withDist }) {
  fs.rmSync(stage, { recursive: true, force: true });
  fs.mkdirSync(stage, { recursive: true });
  fs.copyFileSync(path.join(packageDir, 'package.json'), path.join(stage, 'package.json'));
  fs.copyFileSync(path.join(root, 'docs', 'n8n-package.md'), path.join(stage, 'README.md'));
  fs.copyFileSync(path.join(root, 'LICENSE'), path.join(stage, 'LICENSE'));
  fs.copyFileSync(path.join(root, 'eslint.config.mjs'), path.join(stage, 'eslint.config.mjs'));
  fs.copyFileSync(path.join(root, 'tsconfig.json'), path.join(stage, 'tsconfig.json'));
  for (const dir of SOURCE_DIRS) linkOrCopy(path.join(root, dir), path.join(stage, dir), { copy: true });
  linkOrCopy(path.join(root, 'node_modules'), path.join(stage, 'node_modules'));
  if (withDist) {
    if (!fs.existsSync(path.join(root, 'dist', 'nodes'))) throw new Error('dist/ is missing: run `npm run build` first');
    linkOrCopy(path.join(root, 'dist'), path.join(stage, 'dist'), { copy: true });
  }
  return stage;
}

/** Writes dist/ (from the root build), README.md and LICENSE into the published package's folder. */
export function preparePackage() {
  if (!fs.existsSync(path.join(root, 'dist', 'nodes'))) throw new Error('dist/ is missing: run `npm run build` first');
  fs.rmSync(path.join(packageDir, 'dist'), { recursive: true, force: true });
  fs.cpSync(path.join(root, 'dist'), path.join(packageDir, 'dist'), { recursive: true });
  fs.copyFileSync(path.join(root, 'docs', 'n8n-package.md'), path.join(packageDir, 'README.md'));
  fs.copyFileSync(path.join(root, 'LICENSE'), path.join(packageDir, 'LICENSE'));
  return packageDir;
}

/**
 * Runs `n8n-node lint` in `dir`; returns its exit status (0 also when the only errors are of rules
 * set aside, see {@link setAsideRules}; `release`: none is). NODE_ENV is dropped: under
 * NODE_ENV=test, eslint-plugin-n8n-nodes-base swaps real file names for fixtures of its own
 * tests and reports nonsense (as happens when jest runs this script).
 */
function lint(dir, extra = [], { release = false } = {}) {
  const env = { ...process.env };
  delete env.NODE_ENV;
  const result = spawnSync(bin('n8n-node'), ['lint', ...extra], { cwd: dir, encoding: 'utf8', env });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  process.stdout.write(output);
  const status = result.status ?? 1;
  const rules = setAsideRules(release);
  if (status === 0 || !onlySetAside(output, rules)) return status;
  noteSetAside(rules);
  return 0;
}

/** Files a publishable tarball may contain. */
export function isAllowedPackedFile(file) {
  return file === 'package.json' || /^README(\.md)?$/i.test(file) || /^LICENSE(\.md)?$/i.test(file) || file.startsWith('dist/');
}

/** `npm pack` in the stage; returns `{tarball, files}`. */
export function pack(dir) {
  fs.mkdirSync(cache, { recursive: true });
  const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', cache], {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [info] = JSON.parse(out.slice(out.indexOf('[')));
  return { tarball: path.join(cache, info.filename), files: info.files.map((f) => f.path) };
}

/** Extracts `tarball` into a fresh folder and returns the package directory inside it. */
export function unpack(tarball, into = path.join(cache, 'packed')) {
  fs.rmSync(into, { recursive: true, force: true });
  fs.mkdirSync(into, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', into]);
  return path.join(into, 'package');
}

/**
 * The package.json files of the repository as a source checkout holds them (tracked files, plus
 * new files not ignored), relative to the root.
 */
function repositoryManifests() {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', 'package.json', '**/package.json'], {
    cwd: root,
    encoding: 'utf8',
  });
  return [...new Set(out.split('\n').filter(Boolean))].filter((f) => !f.includes('node_modules/') && fs.existsSync(path.join(root, f)));
}

/**
 * Runs n8n's community package scanner (`@n8n/scan-community-package`, the checks n8n applies
 * before a community package is verified) the way it scans a published version, on local files:
 * - the source leg: the scanner looks in the source checkout for the package.json named like the
 *   package (its `findPackageRoot`) and lints it with the node and credential sources next to it;
 *   here that must be packages/n8n-nodes-taskspace (and no other package.json of the repository
 *   may carry the name, the root's included);
 * - the tarball leg: the compiled `.js` and the package.json of the unpacked tarball in `packed`.
 * Its CLI downloads a published version and its source by provenance; its exported functions scan
 * local folders, which is what a check before publishing needs. Returns true when both pass, or
 * fail only the rules set aside (see {@link setAsideRules}; none with `release`).
 */
async function scan(packed, { release = false } = {}) {
  const { analyzePackage, SOURCE_FILE_PATTERNS } = await import('@n8n/scan-community-package/scanner/scanner.mjs');
  let passed = true;
  const named = repositoryManifests().filter((f) => {
    try {
      return JSON.parse(fs.readFileSync(path.join(root, f), 'utf8')).name === PACKAGE_NAME;
    } catch {
      return false;
    }
  });
  const expected = path.relative(root, path.join(packageDir, 'package.json'));
  if (JSON.stringify(named) !== JSON.stringify([expected])) {
    console.error(
      `community package scanner: the source leg finds the package by name; package.json files named ${PACKAGE_NAME}: ${named.join(', ') || 'none'} (expected only ${expected})`,
    );
    passed = false;
  }
  const legs = [
    ['source', packageDir, SOURCE_FILE_PATTERNS],
    ['tarball', packed, ['**/*.js', 'package.json']],
  ];
  const rules = setAsideRules(release);
  // As for `n8n-node lint`: under NODE_ENV=test the n8n-nodes-base rules read fixture file names.
  const nodeEnv = process.env.NODE_ENV;
  delete process.env.NODE_ENV;
  for (const [leg, dir, patterns] of legs) {
    const result = await analyzePackage(dir, patterns);
    if (result.passed) {
      console.log(`community package scanner (${leg}): passed`);
    } else if (result.details && onlySetAside(result.details, rules)) {
      // Every finding is of the missing publishing metadata: reported, not a failure of the check.
      console.log(`community package scanner (${leg}): fails only ${[...rules].join(', ')}: NOT PUBLISHABLE`);
    } else {
      console.error(`community package scanner (${leg}): ${result.message}`);
      if (result.details) console.error(result.details);
      passed = false;
    }
  }
  if (nodeEnv !== undefined) process.env.NODE_ENV = nodeEnv;
  return passed;
}

async function main(argv) {
  const [command, ...rest] = argv;
  if (command === 'lint') {
    const status = lint(makeStage({ withDist: false }), rest);
    if (rest.includes('--fix')) copyBackFixes();
    return status;
  }
  if (command === 'metadata') {
    const file = rest[0] ? path.resolve(rest[0]) : path.join(packageDir, 'package.json');
    const problems = publishMetadataProblems(JSON.parse(fs.readFileSync(file, 'utf8')));
    if (problems.length === 0) {
      console.log(`${path.relative(root, file)}: publishing metadata complete`);
      return 0;
    }
    console.error(`${path.relative(root, file)}: NOT PUBLISHABLE: ${describeMetadataProblems(problems)}.`);
    return 1;
  }
  if (command === 'pack') {
    const release = rest.includes('--release');
    if (release) {
      // A release needs the metadata first: say so before packing anything.
      const problems = publishMetadataProblems(publishManifest());
      if (problems.length > 0) {
        console.error(`release check failed: the package is NOT PUBLISHABLE: ${describeMetadataProblems(problems)}.`);
        return 1;
      }
    }
    const dir = preparePackage();
    const { tarball, files } = pack(dir);
    const unexpected = files.filter((f) => !isAllowedPackedFile(f));
    const required = ['package.json', 'README.md', 'LICENSE'];
    const missing = required.filter((f) => !files.includes(f));
    const manifest = publishManifest();
    const declared = [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])];
    const undeclared = declared.filter((f) => !files.includes(f));
    console.log(`${path.relative(root, tarball)}: ${files.length} files`);
    for (const f of files) console.log(`  ${f}`);
    let failed = false;
    if (unexpected.length) {
      console.error(`unexpected files in the package: ${unexpected.join(', ')}`);
      failed = true;
    }
    if (missing.length) {
      console.error(`missing from the package: ${missing.join(', ')}`);
      failed = true;
    }
    if (undeclared.length) {
      console.error(`n8n section lists files the package lacks: ${undeclared.join(', ')}`);
      failed = true;
    }
    // `n8n-node build` at the root reads the root's n8n section: it must list the same files.
    const rootPackage = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    if (JSON.stringify(rootPackage.n8n) !== JSON.stringify(manifest.n8n)) {
      console.error('the n8n sections of package.json and packages/n8n-nodes-taskspace/package.json differ');
      failed = true;
    }
    // The packed package.json against the community rules (dist/ is ignored by the stock config).
    const packed = unpack(tarball);
    fs.copyFileSync(path.join(root, 'eslint.config.mjs'), path.join(packed, 'eslint.config.mjs'));
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(packed, 'node_modules'));
    if (lint(packed, [], { release }) !== 0) {
      console.error('the packed package fails `n8n-node lint`');
      failed = true;
    }
    fs.rmSync(path.join(packed, 'node_modules'));
    fs.rmSync(path.join(packed, 'eslint.config.mjs'));
    if (!(await scan(packed, { release }))) {
      console.error('the package fails the community package scanner');
      failed = true;
    }
    if (manifest.scripts !== undefined) {
      // Lifecycle scripts would ship in the published manifest (and name files the package lacks).
      console.error(`the published manifest has scripts (${Object.keys(manifest.scripts).join(', ')}): it must have none`);
      failed = true;
    }
    const problems = publishMetadataProblems(manifest);
    const relTarball = path.relative(root, tarball);
    const line = `${relTarball} is NOT PUBLISHABLE: ${describeMetadataProblems(problems)}.`;
    if (failed || (release && problems.length > 0)) {
      console.error(`${release ? 'release' : 'pack'} check failed${problems.length > 0 ? `: ${line}` : ''}`);
      return 1;
    }
    if (problems.length > 0) {
      console.log(`pack check: contents, lint and scanner checked; ${line} \`npm run release:check\` fails until then.`);
      return 0;
    }
    console.log(
      release
        ? `release check passed: publish ${relTarball} (npm publish ${relTarball} --provenance --access public)`
        : `pack check passed: ${relTarball} is publishable`,
    );
    return 0;
  }
  console.error('usage: package-stage.mjs lint [--fix] | pack [--release] | metadata [FILE]');
  return 2;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  process.exitCode = await main(process.argv.slice(2));
}
