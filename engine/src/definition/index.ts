/**
 * The automation definition's bottom layer (README "Automations"): its shared base types
 * (`types.ts`, a leaf), validation against a set of kinds (`validate.ts`, through
 * `DefinitionRules`), walking the action tree (`walk.ts`) and the `matches` patterns
 * (`patterns.ts`). It imports nothing of `../kinds`: the kinds, their own types, the published
 * schema and the variable checks are there, above it.
 */
export * from './types';
export * from './validate';
export * from './walk';
export * from './patterns';
