import type { Migration } from '../migrate';

/**
 * Media bytes kept in the database (`TASKSPACE_MEDIA_STORE=database`, modules/media/contents.ts):
 * each item's bytes as numbered chunks of at most 512 KiB, so that a download streams them one
 * row at a time. They go with their media row (and its folder and workspace) by the cascade.
 */
export const m021MediaChunks: Migration = {
  version: 21,
  name: 'media_chunks',
  up: `
CREATE TABLE media_chunks (
  media_id  TEXT NOT NULL REFERENCES media(id) ON DELETE CASCADE,
  seq       INTEGER NOT NULL,
  bytes     BLOB NOT NULL,
  PRIMARY KEY (media_id, seq)
);`,
};
