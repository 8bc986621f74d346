import { execFileSync } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Helpers of the webhook suites: real receivers on loopback, certificates, waiting. */

/** One request a receiver got. */
export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The body bytes exactly as received. */
  raw: Buffer;
  json: any;
  /** The status answered, or undefined while hanging. */
  status?: number;
}

/** A receiver's answer to one request: a status and optional headers, or 'hang' (never answer). */
export type Responder = (req: Received, index: number) => { status: number; headers?: Record<string, string> } | 'hang';

/** A listening receiver. */
export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** TCP connections accepted (to prove that refused targets were never contacted). */
  connections: number;
  respond: Responder;
  close(): Promise<void>;
}

function handler(state: { received: Received[]; respond: Responder }) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let json: unknown;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        json = undefined;
      }
      const entry: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, raw, json };
      const index = state.received.length;
      state.received.push(entry);
      const answer = state.respond(entry, index);
      if (answer === 'hang') return;
      entry.status = answer.status;
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      res.end('ok');
    });
  };
}

/**
 * Starts a receiver on 127.0.0.1 (or `host`): plain http, or https with `tls` ({key, cert}).
 * It answers 200 unless `respond` says otherwise.
 */
export async function startReceiver(
  opts: { tls?: { key: string; cert: string }; host?: string; respond?: Responder } = {},
): Promise<Receiver> {
  const host = opts.host ?? '127.0.0.1';
  const state = { received: [] as Received[], respond: opts.respond ?? (() => ({ status: 200 })) };
  const server = opts.tls
    ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, handler(state))
    : http.createServer(handler(state));
  const receiver: Receiver = {
    url: '',
    port: 0,
    received: state.received,
    connections: 0,
    get respond() {
      return state.respond;
    },
    set respond(fn: Responder) {
      state.respond = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
  server.on('connection', () => receiver.connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  receiver.port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  receiver.url = `${opts.tls ? 'https' : 'http'}://${shownHost}:${receiver.port}`;
  return receiver;
}

/** A self-signed certificate for localhost / 127.0.0.1 made with openssl, written to a temp dir. */
export function makeCertificate(): { key: string; cert: string; certFile: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskspace-cert-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { key: fs.readFileSync(keyFile, 'utf8'), cert: fs.readFileSync(certFile, 'utf8'), certFile };
}

/**
 * Independent signature check for the tests (deliberately not the server's verifySignature):
 * HMAC-SHA256 of the raw bytes, hex, compared in constant time.
 */
export function signatureMatches(raw: Buffer, header: string | string[] | undefined, secret: string): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = Buffer.from('sha256=' + createHmac('sha256', secret).update(raw).digest('hex'));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export { sleep, waitFor, type Truthy } from '../helpers/wait';
