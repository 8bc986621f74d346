/**
 * Limits and accepted types of tasks and notes (README "Tasks"). A leaf module: the route schemas
 * (`schemas.ts`) and the services both read it without importing each other.
 */

/** Task content types (spec section 4.8 leaves them open; README "Tasks"). Both are stored verbatim. */
export const CONTENT_TYPES = ['text/markdown', 'text/plain'] as const;
/** One of {@link CONTENT_TYPES}. */
export type ContentType = (typeof CONTENT_TYPES)[number];

/** Longest task content, in characters (spec section 8); also the limit of each imported task (modules/projects/markdown-import.ts). */
export const MAX_CONTENT_LENGTH = 2000;

/** Most tasks one create request may carry. */
export const MAX_TASKS_PER_CREATE = 100;

/** Note types accepted on write. */
export const NOTE_WRITE_TYPES = ['text/plain', 'text/markdown', 'text', 'markdown'] as const;

/** Longest note, in characters. */
export const MAX_NOTE_LENGTH = 10000;
