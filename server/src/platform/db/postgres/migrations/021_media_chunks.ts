import type { Migration } from '../../migrate';

/**
 * PostgreSQL's half of migration 021 (../../migrations/021_media_chunks.ts): media bytes as
 * numbered chunks. The chunks are stored out of line without compression (`STORAGE EXTERNAL`):
 * most media are compressed already, and a download then reads each chunk without inflating it.
 */
export const m021MediaChunks: Migration = {
  version: 21,
  name: 'media_chunks',
  up: `
CREATE TABLE media_chunks (
  media_id  TEXT COLLATE "C" NOT NULL REFERENCES media(id) ON DELETE CASCADE,
  seq       BIGINT NOT NULL,
  bytes     BYTEA NOT NULL,
  PRIMARY KEY (media_id, seq)
);
ALTER TABLE media_chunks ALTER COLUMN bytes SET STORAGE EXTERNAL;`,
};
