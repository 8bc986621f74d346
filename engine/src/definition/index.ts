/**
 * The automation definition (README "Automations"): its types and kinds (`types.ts`), the
 * published JSON Schema (`schema.ts`), validation (`validate.ts`), walking the action tree
 * (`walk.ts`) and the `matches` patterns (`patterns.ts`).
 */
export * from './types';
export * from './schema';
export * from './validate';
export * from './walk';
export * from './patterns';
