/**
 * Dependency rules for the server and the engine (issue 23: no import loop, the engine never imports
 * the server; issue 36: no loop through type imports in server/src nor in engine/src, and no
 * folder loop — the folder rule is `scripts/folder-cycles.mjs`, which `npm run lint:deps` runs
 * after this). Run with `npm run lint:deps`; `npm test` runs it before jest.
 * A loop is any cycle of imports, type-only ones (`import type`) included: a type that two modules
 * share belongs in a module below both. In the engine each kind adds its type to the shared base
 * by declaration merging (`engine/src/definition/types.ts`), so the base never imports the kinds.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular-server',
      severity: 'error',
      comment: 'No import loop in server/src, type imports included: move the shared part (or type) down a layer.',
      from: { path: '^server/src' },
      to: { circular: true },
    },
    {
      name: 'no-circular-engine',
      severity: 'error',
      comment:
        'No import loop in engine/src, type-only imports included (issue 36): a kind module imports the shared ' +
        'base (definition/types.ts) and the kind machinery, never the list of kinds nor another kind.',
      from: { path: '^engine/src' },
      to: { circular: true },
    },
    {
      name: 'engine-not-to-server',
      severity: 'error',
      comment: 'The engine is a library: it never imports the server or Fastify.',
      from: { path: '^engine/src' },
      to: { path: ['^server/', 'node_modules/fastify', 'node_modules/@fastify/'] },
    },
    {
      name: 'http-not-to-auth',
      severity: 'error',
      comment: 'http/ sits below auth/ and accounts/ (docs/architecture.md "Layers"): what both need goes in http/ or platform/.',
      from: { path: '^server/src/http/' },
      to: { path: '^server/src/(auth|accounts)/' },
    },
    {
      name: 'auth-not-to-accounts',
      severity: 'error',
      comment: 'auth/ (who the caller is) sits below accounts/ and the modules: they import it, never the other way.',
      from: { path: '^server/src/auth/' },
      to: { path: '^server/src/(accounts|modules)/' },
    },
    {
      name: 'engine-host-at-the-bottom',
      severity: 'error',
      comment:
        'modules/engine-host sits below the automation folders (runs, inbound, automations): what they share about an automation record goes in it.',
      from: { path: '^server/src/modules/engine-host/' },
      to: { path: '^server/src/modules/(automations|runs|inbound|oauth)/' },
    },
    {
      name: 'runs-below-automations',
      severity: 'error',
      comment: 'modules/runs sits below modules/automations and modules/inbound: automations may import runs, never the other way.',
      from: { path: '^server/src/modules/runs/' },
      to: { path: '^server/src/modules/(automations|inbound)/' },
    },
    {
      name: 'lower-layers-not-to-modules',
      severity: 'error',
      comment: 'http/ and platform/ sit below the modules: they never import server/src/modules.',
      from: { path: '^server/src/(http|platform)/' },
      to: { path: '^server/src/modules/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
