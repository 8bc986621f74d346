#!/usr/bin/env node
/**
 * Stages the n8n community package in `.n8n-host/package/` the way it is published, and
 * runs the package checks there.
 *
 * Why a stage: the repository root is also the npm workspace root of the service, so its
 * package.json carries development-only fields (`workspaces`, `overrides`, a `prepare`
 * script) that n8n's community-package rules forbid, and `eslint .` at the root would lint
 * the server and test code with the community node rules. The stage holds exactly what
 * the package is: a publish manifest derived from the root package.json, the package README
 * (docs/n8n-package.md), LICENSE, the stock eslint.config.mjs and tsconfig.json, copies of the
 * node and credential sources and icons (ESLint does not enter symlinked folders; `lint --fix`
 * copies fixed files back), and dist/.
 *
 * Usage:
 *   node test/n8n-host/package-stage.mjs lint [--fix]   stage, then `n8n-node lint` in the stage
 *   node test/n8n-host/package-stage.mjs pack           stage with dist/, `npm pack`, check the
 *                                                      tarball's file list, lint the packed package.json
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

/**
 * Publishing metadata used only when the root package.json lacks it (the community rules
 * require an author with name and email, and recommend a homepage).
 */
const PUBLISH_DEFAULTS = {
	author: { name: 'Taskspace contributors', email: 'maintainers@taskspace.invalid' },
	homepage: 'https://www.npmjs.com/package/n8n-nodes-taskspace',
};

/** Source folders linted in the stage. */
const SOURCE_DIRS = ['nodes', 'credentials', 'icons'];

/** Copies files that `lint --fix` changed in the stage back to the repository. */
function copyBackFixes() {
	const walk = (dir) =>
		fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
			e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
		);
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

/** Fields of the root package.json that belong in the published manifest. */
const MANIFEST_FIELDS = [
	'name', 'version', 'description', 'keywords', 'license', 'homepage', 'author', 'repository',
	'bugs', 'engines', 'files', 'n8n', 'peerDependencies',
];

/** The published package.json: the package's own fields, none of the workspace's. */
export function publishManifest(rootPackage) {
	const manifest = {};
	for (const field of MANIFEST_FIELDS) {
		if (rootPackage[field] !== undefined) manifest[field] = rootPackage[field];
		else if (PUBLISH_DEFAULTS[field] !== undefined) manifest[field] = PUBLISH_DEFAULTS[field];
	}
	return manifest;
}

function linkOrCopy(from, to, { copy = false } = {}) {
	if (!fs.existsSync(from)) return;
	if (copy) fs.cpSync(from, to, { recursive: true });
	else fs.symlinkSync(path.relative(path.dirname(to), from), to);
}

/** Recreates the stage; `withDist` copies the built dist/ (run `n8n-node build` first). */
export function makeStage({ withDist }) {
	fs.rmSync(stage, { recursive: true, force: true });
	fs.mkdirSync(stage, { recursive: true });
	const rootPackage = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	fs.writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(publishManifest(rootPackage), null, '\t')}\n`);
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

/**
 * Runs `n8n-node lint` in `dir`; returns its exit status. NODE_ENV is dropped: under
 * NODE_ENV=test, eslint-plugin-n8n-nodes-base swaps real file names for fixtures of its own
 * tests and reports nonsense (as happens when jest runs this script).
 */
function lint(dir, extra = []) {
	const env = { ...process.env };
	delete env.NODE_ENV;
	const result = spawnSync(bin('n8n-node'), ['lint', ...extra], { cwd: dir, stdio: 'inherit', env });
	return result.status ?? 1;
}

/** Files a publishable tarball may contain. */
export function isAllowedPackedFile(file) {
	return file === 'package.json' || /^README(\.md)?$/i.test(file) || /^LICENSE(\.md)?$/i.test(file) || file.startsWith('dist/');
}

/** `npm pack` in the stage; returns `{tarball, files}`. */
export function pack(dir) {
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
 * Runs n8n's community package scanner (`@n8n/scan-community-package`, the checks n8n applies
 * before a community package is verified) on the unpacked tarball in `dir`. Its CLI downloads a
 * published version by name; its exported `analyzePackage` scans a local folder, which is what a
 * check before publishing needs. Returns true when it passes; prints the findings otherwise.
 */
async function scan(dir) {
	const { analyzePackage } = await import('@n8n/scan-community-package/scanner/scanner.mjs');
	const result = await analyzePackage(dir);
	if (result.passed) {
		console.log('community package scanner: passed');
		return true;
	}
	console.error(`community package scanner: ${result.message}`);
	if (result.details) console.error(result.details);
	return false;
}

async function main(argv) {
	const [command, ...rest] = argv;
	if (command === 'lint') {
		const status = lint(makeStage({ withDist: false }), rest);
		if (rest.includes('--fix')) copyBackFixes();
		return status;
	}
	if (command === 'pack') {
		const dir = makeStage({ withDist: true });
		const { tarball, files } = pack(dir);
		const unexpected = files.filter((f) => !isAllowedPackedFile(f));
		const required = ['package.json', 'README.md', 'LICENSE'];
		const missing = required.filter((f) => !files.includes(f));
		const rootPackage = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
		const declared = [...(rootPackage.n8n?.nodes ?? []), ...(rootPackage.n8n?.credentials ?? [])];
		const undeclared = declared.filter((f) => !files.includes(f));
		console.log(`${path.relative(root, tarball)}: ${files.length} files`);
		for (const f of files) console.log(`  ${f}`);
		let failed = false;
		if (unexpected.length) { console.error(`unexpected files in the package: ${unexpected.join(', ')}`); failed = true; }
		if (missing.length) { console.error(`missing from the package: ${missing.join(', ')}`); failed = true; }
		if (undeclared.length) { console.error(`n8n section lists files the package lacks: ${undeclared.join(', ')}`); failed = true; }
		// The packed package.json against the community rules (dist/ is ignored by the stock config).
		const packed = unpack(tarball);
		fs.copyFileSync(path.join(root, 'eslint.config.mjs'), path.join(packed, 'eslint.config.mjs'));
		fs.symlinkSync(path.join(root, 'node_modules'), path.join(packed, 'node_modules'));
		if (lint(packed) !== 0) { console.error('the packed package fails `n8n-node lint`'); failed = true; }
		fs.rmSync(path.join(packed, 'node_modules'));
		fs.rmSync(path.join(packed, 'eslint.config.mjs'));
		if (!(await scan(packed))) { console.error('the packed package fails the community package scanner'); failed = true; }
		if (!failed) console.log('pack check passed');
		return failed ? 1 : 0;
	}
	console.error('usage: package-stage.mjs lint [--fix] | pack');
	return 2;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
	process.exitCode = await main(process.argv.slice(2));
}
