/**
 * Taskspace automation engine. See README "Automations".
 * @packageDocumentation
 */
export const ENGINE_VERSION = '0.1.0';
