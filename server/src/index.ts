/**
 * The Taskspace service as a library: build the app in-process (tests, embedding).
 * @packageDocumentation
 */
export { buildApp, type BuildOptions, type BuiltApp } from './app';
export { loadConfig, type Config, ConfigError } from './config';
export type { Services } from './services';
export { verifySignature, signPayload, SIGNATURE_HEADER } from './modules/webhooks/signature';
