/**
 * The automation definition (README "Automations"): its types (`types.ts`; the kinds themselves
 * and the published schema are `../kinds`), validation (`validate.ts`), walking the action tree
 * (`walk.ts`), the `matches` patterns (`patterns.ts`) and the headers a `respond` step may set
 * (`response-headers.ts`), the variables of each trigger kind (`trigger-variables.ts`) and the
 * save check of template variables (`variables.ts`).
 */
export * from './types';
export * from './service-actions';
export * from './validate';
export * from './walk';
export * from './patterns';
export * from './response-headers';
export * from './trigger-variables';
export * from './variables';
