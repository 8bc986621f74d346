import type { PairedMigration } from '../migrate';

/**
 * Media bytes kept in the database (`TASKSPACE_MEDIA_STORE=database`, modules/media/contents.ts):
 * each item's bytes as numbered chunks of at most 512 KiB, so that a download streams them one
 * row at a time. They go with their media row (and its folder and workspace) by the cascade.
 * On PostgreSQL the chunks are stored out of line without compression (`STORAGE EXTERNAL`): most
 * media are compressed already, and a download then reads each chunk without inflating it.
 */
export const m021MediaChunks: PairedMigration = {
  version: 21,
  name: 'media_chunks',
  up: {
    sqlite: `
CREATE TABLE media_chunks (
  media_id  TEXT NOT NULL REFERENCES media(id) ON DELETE CASCADE,
  seq       INTEGER NOT NULL,
  bytes     BLOB NOT NULL,
  PRIMARY KEY (media_id, seq)
);`,
    postgres: `
CREATE TABLE media_chunks (
  media_id  TEXT COLLATE "C" NOT NULL REFERENCES media(id) ON DELETE CASCADE,
  seq       BIGINT NOT NULL,
  bytes     BYTEA NOT NULL,
  PRIMARY KEY (media_id, seq)
);
ALTER TABLE media_chunks ALTER COLUMN bytes SET STORAGE EXTERNAL;`,
  },
};
