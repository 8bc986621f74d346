import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FormData, request } from 'undici';
import type { TestServer } from '../helpers/server';
import { storeEnv } from '../helpers/test-store';

/** The built `taskspace` bin (`npx taskspace`). */
export const BIN = path.resolve(__dirname, '../../server/bin/taskspace.js');

/** What a CLI run printed. */
export interface CliResult {
  code: number;
  out: string;
  err: string;
}

/**
 * Runs the built CLI in a child process without blocking the test's event loop (servers of the
 * test keep answering meanwhile), on `dataDir` and its store (`storeEnv`) unless `env` says otherwise.
 */
export function runBin(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, TASKSPACE_DATA_DIR: dataDir, ...storeEnv(dataDir), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? -1, out: out.trimEnd(), err: err.trimEnd() }));
  });
}

/** A PATH holding only `node`: the CLI finds no `pg_dump` nor `pg_restore` on it. */
export function pathWithoutPostgresTools(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'taskspace-path-'));
  fs.symlinkSync(process.execPath, path.join(folder, 'node'));
  return folder;
}

/** Uploads one file into the workspace's home folder; returns the media item. */
export async function uploadMedia(server: TestServer, name: string, bytes: Buffer): Promise<{ id: string }> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'application/octet-stream' }), name);
  const res = await request(`${server.url}/api/v1/folders/${server.workspaceId}/medias`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}` },
    body: form,
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`upload failed: ${res.statusCode} ${text}`);
  return (JSON.parse(text) as { item: { id: string } }).item;
}

/** The bytes of a media item's content. */
export async function mediaBytes(server: TestServer, id: string): Promise<Buffer> {
  const res = await request(`${server.url}/api/v1/medias/${id}/content`, { headers: { authorization: `Bearer ${server.token}` } });
  if (res.statusCode !== 200) throw new Error(`download failed: ${res.statusCode}`);
  return Buffer.from(await res.body.arrayBuffer());
}
