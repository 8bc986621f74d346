import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock, Service, ServiceContext } from '../../engine/src';

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  constructor(public ms = Date.UTC(2025, 0, 6, 9, 0, 0)) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** A task as the in-memory test service keeps it. */
export interface MemTask {
  id: string;
  projectId: string;
  text: string;
  completed: boolean;
  assignees: string[];
  note?: string;
  fields: Record<string, unknown>;
}

/**
 * A small in-memory implementation of the engine's Service port for engine-level tests (the
 * server's adapter is tested in test/automations). It records every call with its context and
 * can hold calls at a gate to observe concurrency.
 */
export class MemService implements Service {
  tasks = new Map<string, MemTask>();
  calls: { op: string; ctx: ServiceContext; params: unknown }[] = [];
  folders = new Map<string, string[]>();
  /** When set, createTask waits for this promise before doing anything. */
  gate: ((params: { text: string }) => Promise<void>) | undefined;
  private seq = 0;

  private log(op: string, ctx: ServiceContext, params: unknown) {
    this.calls.push({ op, ctx, params });
  }
  private task(p: { projectId: string; taskId: string }): MemTask {
    const t = this.tasks.get(p.taskId);
    if (!t || t.projectId !== p.projectId)
      throw Object.assign(new Error(`task '${p.taskId}' not found`), { statusCode: 404, code: 'NOT_FOUND' });
    return t;
  }
  async createTask(ctx: ServiceContext, p: { projectId: string; text: string }) {
    this.log('createTask', ctx, p);
    if (this.gate) await this.gate(p);
    if (p.text.length > 2000) throw Object.assign(new Error('content too long'), { statusCode: 400, code: 'VALIDATION_ERROR' });
    const task: MemTask = { id: `t${++this.seq}`, projectId: p.projectId, text: p.text, completed: false, assignees: [], fields: {} };
    this.tasks.set(task.id, task);
    return { ...task };
  }
  async updateTask(ctx: ServiceContext, p: { projectId: string; taskId: string; text: string }) {
    this.log('updateTask', ctx, p);
    const t = this.task(p);
    t.text = p.text;
    return { ...t };
  }
  async completeTask(ctx: ServiceContext, p: { projectId: string; taskId: string }) {
    this.log('completeTask', ctx, p);
    const t = this.task(p);
    t.completed = true;
    return { ...t };
  }
  async uncompleteTask(ctx: ServiceContext, p: { projectId: string; taskId: string }) {
    this.log('uncompleteTask', ctx, p);
    const t = this.task(p);
    t.completed = false;
    return { ...t };
  }
  async deleteTask(ctx: ServiceContext, p: { projectId: string; taskId: string }) {
    this.log('deleteTask', ctx, p);
    this.task(p);
    this.tasks.delete(p.taskId);
    return { ok: true };
  }
  async assignTask(ctx: ServiceContext, p: { projectId: string; taskId: string; handles: string[] }) {
    this.log('assignTask', ctx, p);
    const t = this.task(p);
    t.assignees = p.handles;
    return { ...t };
  }
  async setTaskDate(ctx: ServiceContext, p: { projectId: string; taskId: string }) {
    this.log('setTaskDate', ctx, p);
    return { ...this.task(p) };
  }
  async setTaskNote(ctx: ServiceContext, p: { projectId: string; taskId: string; value: string }) {
    this.log('setTaskNote', ctx, p);
    const t = this.task(p);
    t.note = p.value;
    return { type: 'text', value: p.value };
  }
  async setTaskField(ctx: ServiceContext, p: { projectId: string; taskId: string; fieldId: string; value: unknown }) {
    this.log('setTaskField', ctx, p);
    this.task(p).fields[p.fieldId] = p.value;
    return { ok: true };
  }
  async moveTask(ctx: ServiceContext, p: { projectId: string; taskId: string }) {
    this.log('moveTask', ctx, p);
    return { ...this.task(p) };
  }
  async runAgentCommand(ctx: ServiceContext, p: { agentId: string; command: string; input: string }) {
    this.log('runAgentCommand', ctx, p);
    return { text: `answer to ${p.input}` };
  }
  async projectFolders(_workspaceId: string, projectId: string) {
    return this.folders.get(projectId) ?? [];
  }
}

/** One request as the loopback receiver saw it. */
export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The body as UTF-8 text. */
  body: string;
  /** The body's bytes. */
  raw: Buffer;
}

/** One scripted answer of the receiver. */
export interface Answer {
  status: number;
  /** JSON, text, or bytes (a Buffer, sent as application/octet-stream). */
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * A real HTTP server on 127.0.0.1 that records requests and answers from a script: each entry
 * of `script` answers one request (the last one repeats), or `script` is a function of the request.
 */
export async function receiver(script: Answer[] | ((request: Received) => Answer) = [{ status: 200, body: { ok: true } }]) {
  const received: Received[] = [];
  const answered: { url: string; status: number }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const request: Received = { method: req.method!, url: req.url!, headers: req.headers, body: raw.toString(), raw };
      received.push(request);
      const answer = typeof script === 'function' ? script(request) : script[Math.min(received.length - 1, script.length - 1)]!;
      answered.push({ url: request.url, status: answer.status });
      const bytes = Buffer.isBuffer(answer.body);
      const body: string | Buffer =
        answer.body === undefined
          ? ''
          : Buffer.isBuffer(answer.body) || typeof answer.body === 'string'
            ? answer.body
            : JSON.stringify(answer.body);
      res.writeHead(answer.status, {
        'content-type': bytes ? 'application/octet-stream' : typeof answer.body === 'string' ? 'text/plain' : 'application/json',
        ...answer.headers,
      });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, answered, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
