/**
 * Dependency rules for the server and the engine (issue 23: no import loop, the engine never imports
 * the server). Run with `npm run lint:deps`; `npm test` runs it before jest.
 * In server/src a loop is a cycle of imports that exist at run time: type-only imports (`import
 * type`) are erased by the compiler and cannot change the order modules load in. In engine/src type
 * imports count too (issue 36): each kind adds its type to the shared base by declaration merging
 * (`engine/src/definition/types.ts`), so the base never imports the kinds.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import loop in server/src: move the shared part down a layer.',
      from: { path: '^server/src' },
      to: { circular: true, dependencyTypesNot: ['type-only'], viaOnly: { dependencyTypesNot: ['type-only'] } },
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
