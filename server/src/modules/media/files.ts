import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { newId } from '../../platform/ids';

/**
 * Media bytes on disk (README "Agents, conversations, media and model providers"): one file per media item at
 * `<dataDir>/media/<storageKey>`. Uploads are streamed to `<dataDir>/media/.tmp/` first and
 * renamed into place (same directory tree, so the rename is atomic) only when the database
 * row is written.
 */

/** Storage keys are url-safe ids; nothing else may name a file. */
const KEY_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** The directory holding media bytes. */
export function mediaDir(dataDir: string): string {
  return path.join(dataDir, 'media');
}

function tempDir(dataDir: string): string {
  return path.join(mediaDir(dataDir), '.tmp');
}

/**
 * The file of a storage key.
 * @throws Error when the key is not a url-safe id (never from client input: keys are ours).
 */
export function mediaPath(dataDir: string, storageKey: string): string {
  if (!KEY_PATTERN.test(storageKey)) throw new Error(`invalid media storage key '${storageKey}'`);
  return path.join(mediaDir(dataDir), storageKey);
}

/** Deletes a file, ignoring one that is already gone. */
export function removeQuietly(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** A finished temporary upload. */
export interface TempUpload {
  /** The temporary file. */
  file: string;
  /** Bytes written. */
  size: number;
}

/**
 * Streams `source` into a new temporary file under `<dataDir>/media/.tmp/`.
 * On any failure the partial file is removed and the stream's error is rethrown; a stream already
 * destroyed before its end is an Error at once.
 */
export async function receiveToTemp(dataDir: string, source: Readable): Promise<TempUpload> {
  // A multipart file stream whose body ended early while nobody read it is destroyed without an
  // `errored` value: piping it would wait forever.
  if (source.destroyed && !source.readableEnded) throw new Error('the upload stream ended before the file was complete');
  fs.mkdirSync(tempDir(dataDir), { recursive: true });
  const file = path.join(tempDir(dataDir), newId());
  const sink = fs.createWriteStream(file, { flags: 'wx' });
  try {
    await pipeline(source, sink);
  } catch (error) {
    // The stream opens its file asynchronously: wait until it is closed, or the unlink could run
    // before the open and leave the file behind.
    sink.destroy();
    if (!sink.closed) await new Promise<void>((resolve) => sink.once('close', () => resolve()));
    removeQuietly(file);
    throw error;
  }
  return { file, size: sink.bytesWritten };
}

/** Moves a finished temporary upload to its final place (atomic rename). */
export function commitTemp(dataDir: string, upload: TempUpload, storageKey: string): void {
  fs.renameSync(upload.file, mediaPath(dataDir, storageKey));
}

/** Deletes the bytes of a storage key, ignoring bytes that are already gone. */
export function removeMediaFile(dataDir: string, storageKey: string): void {
  removeQuietly(mediaPath(dataDir, storageKey));
}

/** A readable stream of a storage key's bytes, or undefined when the file is missing. */
export function openMediaFile(dataDir: string, storageKey: string): fs.ReadStream | undefined {
  let fd: number;
  try {
    fd = fs.openSync(mediaPath(dataDir, storageKey), 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return fs.createReadStream('', { fd });
}

/** Up to `maxBytes` bytes from the start of a storage key's file (empty when missing). */
export function readMediaPrefix(dataDir: string, storageKey: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    fd = fs.openSync(mediaPath(dataDir, storageKey), 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
    throw error;
  }
  try {
    const buffer = Buffer.alloc(maxBytes);
    const read = fs.readSync(fd, buffer, 0, maxBytes, 0);
    return buffer.subarray(0, read);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Removes temporary uploads left by a crash. Call once at start, before uploads are accepted.
 * @returns how many files were removed.
 */
export function sweepTempUploads(dataDir: string): number {
  let removed = 0;
  let names: string[];
  try {
    names = fs.readdirSync(tempDir(dataDir));
  } catch {
    return 0;
  }
  for (const name of names) {
    removeQuietly(path.join(tempDir(dataDir), name));
    removed++;
  }
  return removed;
}
