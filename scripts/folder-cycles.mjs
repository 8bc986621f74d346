#!/usr/bin/env node
/**
 * The folder-level no-loop rule of `npm run lint:deps` (issue 36; docs/architecture.md "Layers").
 * dependency-cruiser's own rules check single files (`.dependency-cruiser.cjs`); its folder scope
 * aggregates every directory depth separately, so a loop such as `modules/a/sub` → `modules/b` →
 * `modules/a` is not seen. This script cruises the tree with dependency-cruiser, collapses each
 * module to its folder, and fails when the folders import each other in a loop, type imports
 * included. The folders compared:
 * - each `server/src/modules/<name>` (everything below it is one folder);
 * - each top-level folder of `server/src` (`http`, `auth`, `accounts`, `platform`, `modules`…);
 * - each top-level folder of `engine/src`.
 * Files directly in `server/src` or `engine/src` (the app's wiring: `app.ts`, `services.ts`…) are
 * not folders and are left out; file-level loops through them are the file rule's.
 *
 * Usage: `node scripts/folder-cycles.mjs [--root <dir>]` (default: the current directory). Exit
 * code 0 when no folder loop is found, 1 with each loop and the imports that make it on stderr.
 */
import process from 'node:process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { cruise } from 'dependency-cruiser';

/** Folders left out of the rule, as path prefixes. */
const excluded = [];

/** The folder a source path belongs to, or undefined when it belongs to none (see the header). */
export function folderOf(path) {
  if (excluded.some((prefix) => path.startsWith(prefix))) return undefined;
  const m = /^server\/src\/modules\/[^/]+(?=\/)/.exec(path) ?? /^(?:server|engine)\/src\/[^/]+(?=\/)/.exec(path);
  return m?.[0];
}

/**
 * The folder graph of cruised modules: for each folder, the folders it imports, with the file
 * imports behind each arrow (`from -> to`, `(type)` for a type-only import).
 */
export function folderGraph(modules) {
  const graph = new Map();
  for (const m of modules) {
    const from = folderOf(m.source);
    if (!from) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    for (const d of m.dependencies) {
      const to = folderOf(d.resolved);
      if (!to || to === from) continue;
      const edges = graph.get(from);
      if (!edges.has(to)) edges.set(to, []);
      edges.get(to).push(`${m.source} -> ${d.resolved}${d.dependencyTypes.includes('type-only') ? ' (type)' : ''}`);
    }
  }
  return graph;
}

/** The strongly connected components of more than one folder (Tarjan): each is a loop. */
export function folderLoops(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const loops = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) loops.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return loops;
}

async function main() {
  const at = process.argv.indexOf('--root');
  if (at > 0) process.chdir(process.argv[at + 1]);
  const roots = ['server/src', 'engine/src'].filter((dir) => existsSync(dir));
  const { output } = await cruise(
    roots,
    {
      tsPreCompilationDeps: true,
      doNotFollow: { path: 'node_modules' },
      exclude: { path: '(^|/)dist/' },
      outputType: 'json',
    },
    { extensions: ['.ts', '.js', '.json'] },
  );
  const result = typeof output === 'string' ? JSON.parse(output) : output;
  const graph = folderGraph(result.modules);
  const loops = folderLoops(graph);
  if (loops.length === 0) {
    console.log(`✔ no folder loops (${graph.size} folders)`);
    return 0;
  }
  for (const loop of loops) {
    console.error(`  error no-folder-loop: ${loop.join(' ⇄ ')}`);
    const inLoop = new Set(loop);
    for (const from of loop)
      for (const [to, edges] of graph.get(from) ?? [])
        if (inLoop.has(to)) {
          console.error(`      ${from} → ${to}:`);
          for (const edge of edges.slice(0, 5)) console.error(`        ${edge}`);
          if (edges.length > 5) console.error(`        (and ${edges.length - 5} more)`);
        }
  }
  console.error(`\nx ${loops.length} folder loop(s): the folders must import each other one way only (docs/architecture.md "Layers").`);
  return 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = await main();
