import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HookContext, WebhookContext } from 'n8n-core';
import type { IDataObject, INodeExecutionData, IWebhookData, IWebhookFunctions } from 'n8n-workflow';

import { verifySignature } from '../../nodes/TaskspaceTrigger/signature';
import { TaskspaceTrigger } from '../../nodes/TaskspaceTrigger/TaskspaceTrigger.node';
import { addUser, call, client } from '../helpers/server';
import { setup, useTaskspaceServer, type Setup } from './harness';

const TRIGGER = 'n8n-nodes-taskspace.taskspaceTrigger';
const server = useTaskspaceServer({ env: { TASKSPACE_WEBHOOKS_ALLOW_INSECURE: '1', TASKSPACE_WEBHOOKS_POLL_MS: '50' } });
const api = () => client(server(), server().token);
const trigger = new TaskspaceTrigger();

/**
 * The part of the n8n server that receives webhook calls: reads the raw body (n8n keeps it as
 * `req.rawBody`), parses the JSON, and hands request and response to the node's `webhook()`
 * through n8n-core's WebhookContext. Records the items each call would start a workflow with.
 */
class Receiver {
  executions: INodeExecutionData[][] = [];
  statuses: number[] = [];
  private server = http.createServer((req, res) => void this.handle(req, res));
  private waiters: Array<() => void> = [];
  current?: Setup;

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhook`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Resolves once `count` executions were started. */
  waitFor(count: number): Promise<void> {
    if (this.executions.length >= count) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => (this.executions.length >= count ? resolve() : this.waiters.push(check));
      this.waiters.push(check);
    });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks);
    const request = Object.assign(req, { rawBody, body: rawBody.length ? JSON.parse(rawBody.toString()) : {} });
    const response = Object.assign(res, {
      status(code: number) {
        res.statusCode = code;
        return response;
      },
      json(body: unknown) {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(body));
        return response;
      },
    });
    const { workflow, node, additionalData } = this.current!;
    const webhookData = {
      httpMethod: 'POST',
      node: node.name,
      path: 'webhook',
      webhookDescription: trigger.description.webhooks![0],
      workflowId: 'test',
      workflowExecuteAdditionalData: additionalData,
    } as unknown as IWebhookData;
    const context = new WebhookContext(
      workflow,
      node,
      { ...additionalData, httpRequest: request, httpResponse: response } as never,
      'webhook',
      webhookData,
      [],
      null,
    );
    const result = await trigger.webhook.call(context as unknown as IWebhookFunctions);
    this.statuses.push(result.noWebhookResponse ? res.statusCode : 200);
    if (!result.noWebhookResponse) {
      res.statusCode = 200;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(result.webhookResponse ?? { ok: true }));
    }
    if (result.workflowData) this.executions.push(result.workflowData[0]);
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}

const receiver = new Receiver();
let baseUrl: string;
beforeAll(async () => {
  baseUrl = await receiver.start();
});
afterAll(() => receiver.stop());

function hook(s: Setup) {
  return new HookContext(s.workflow, s.node, s.additionalData, 'trigger', 'activate');
}

const methods = trigger.webhookMethods.default;

describe('signature check', () => {
  test('accepts the HMAC-SHA256 of the exact bytes, in constant time, and refuses anything else', () => {
    const body = Buffer.from('{"id":"1","type":"task.assigned"}');
    const good = `sha256=${createHmac('sha256', 'secret').update(body).digest('hex')}`;
    expect(verifySignature(body, good, 'secret')).toBe(true);
    expect(verifySignature(body, good.toUpperCase().replace('SHA256=', 'sha256='), 'secret')).toBe(true);
    expect(verifySignature(body, good, 'other')).toBe(false);
    expect(verifySignature(Buffer.from(`${body} `), good, 'secret')).toBe(false);
    expect(verifySignature(body, undefined, 'secret')).toBe(false);
    expect(verifySignature(body, good.slice(0, -2), 'secret')).toBe(false);
    expect(verifySignature(body, good.replace('sha256=', 'sha1='), 'secret')).toBe(false);
    expect(verifySignature(body, good, '')).toBe(false);
  });
});

describe('Taskspace Trigger', () => {
  test('activation registers, checkExists notices changes, deliveries start executions, forgeries get 401, deactivation deletes', async () => {
    const s = setup(server(), {
      type: TRIGGER,
      webhookBaseUrl: baseUrl,
      parameters: { events: ['task.assigned'], workspaceIds: [], options: { includeMetadata: true } },
    });
    receiver.current = s;
    expect(await methods.checkExists.call(hook(s))).toBe(false);
    expect(await methods.create.call(hook(s))).toBe(true);
    const stored = s.workflow.getStaticData('node', s.node) as IDataObject;
    const webhookUrl = hook(s).getNodeWebhookUrl('default')!;
    const registered = await api().get(`/api/v2/webhooks/${encodeURIComponent(webhookUrl)}`);
    expect(registered.body.item).toMatchObject({ url: webhookUrl, events: ['task.assigned'], spaceIds: [] });
    expect(typeof stored.secret).toBe('string');
    expect(await methods.checkExists.call(hook(s))).toBe(true);

    // A task assignment in the service produces one execution with the payload.
    addUser(server(), 'erin', { workspaceId: server().workspaceId, role: 'Participant' });
    const project = await api().post('/api/v1/projects', {
      folderId: server().workspaceId,
      contentType: 'text/markdown',
      content: '# Hooked\n- Ship it',
    });
    const projectId = project.body.item.id;
    const [task] = (await api().get(`/api/v1/projects/${projectId}/tasks`)).body.items;
    await api().put(`/api/v1/projects/${projectId}/tasks/${task.id}/assignees`, { handles: ['erin'] });
    await receiver.waitFor(1);
    expect(receiver.executions).toHaveLength(1);
    const [item] = receiver.executions[0];
    expect(item.json).toMatchObject({
      projectId,
      nodeId: task.id,
      nodeText: 'Ship it',
      added: [{ handle: 'erin' }],
      event: 'task.assigned',
      workspaceId: server().workspaceId,
    });
    expect(typeof item.json.deliveryId).toBe('string');

    // Forged and unsigned deliveries: 401, nothing starts.
    const body = JSON.stringify({ id: 'x', type: 'task.assigned', workspaceId: 'w', timestamp: 't', payload: { forged: true } });
    const forged = await call(webhookUrl.replace(/\/webhook\/.*$/, ''), 'POST', new URL(webhookUrl).pathname, {
      rawBody: body,
      headers: {
        'content-type': 'application/json',
        'x-service-signature': `sha256=${createHmac('sha256', 'not-the-secret').update(body).digest('hex')}`,
      },
    });
    expect(forged.status).toBe(401);
    const unsigned = await call(new URL(webhookUrl).origin, 'POST', new URL(webhookUrl).pathname, {
      rawBody: body,
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.status).toBe(401);
    expect(receiver.executions).toHaveLength(1);

    // Correctly signed, but the signed timestamp is outside the window (default 5 minutes, either
    // way): a replayed capture gets 401 and starts nothing; "Max Delivery Age" widens the window.
    const signed = (timestamp: string) => {
      const bytes = JSON.stringify({ id: 'r', type: 'task.assigned', workspaceId: 'w', timestamp, payload: { replayed: timestamp } });
      return call(new URL(webhookUrl).origin, 'POST', new URL(webhookUrl).pathname, {
        rawBody: bytes,
        headers: {
          'content-type': 'application/json',
          'x-service-signature': `sha256=${createHmac('sha256', String(stored.secret)).update(bytes).digest('hex')}`,
        },
      });
    };
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    for (const timestamp of [minutesAgo(6), minutesAgo(-6), 'not a time']) {
      const replayed = await signed(timestamp);
      expect(replayed.status).toBe(401);
      expect(replayed.body.error.code).toBe('STALE_DELIVERY');
    }
    expect(receiver.executions).toHaveLength(1);
    expect((await signed(minutesAgo(4))).status).toBe(200);
    expect(receiver.executions).toHaveLength(2);
    s.node.parameters.options = { includeMetadata: true, maxAgeSeconds: 3600 };
    expect((await signed(minutesAgo(30))).status).toBe(200);
    expect(receiver.executions).toHaveLength(3);
    expect(receiver.executions[2]![0]!.json).toMatchObject({ replayed: expect.any(String), event: 'task.assigned' });
    s.node.parameters.options = { includeMetadata: true };

    // Changing events or scope makes checkExists false; create re-registers the same URL.
    s.node.parameters.events = ['task.assigned', 'comment.created'];
    expect(await methods.checkExists.call(hook(s))).toBe(false);
    await methods.create.call(hook(s));
    expect(await methods.checkExists.call(hook(s))).toBe(true);
    s.node.parameters.workspaceIds = [server().workspaceId];
    expect(await methods.checkExists.call(hook(s))).toBe(false);
    await methods.create.call(hook(s));
    const replaced = await api().get(`/api/v2/webhooks/${encodeURIComponent(webhookUrl)}`);
    expect(replaced.body.item).toMatchObject({ events: ['comment.created', 'task.assigned'].sort(), spaceIds: [server().workspaceId] });
    expect((await api().get('/api/v2/webhooks')).body.items).toHaveLength(1);

    // Deleted on the service side: checkExists notices.
    await api().delete(`/api/v2/webhooks/${encodeURIComponent(webhookUrl)}`);
    expect(await methods.checkExists.call(hook(s))).toBe(false);
    await methods.create.call(hook(s));

    // Deactivation deletes the registration.
    expect(await methods.delete.call(hook(s))).toBe(true);
    expect((await api().get(`/api/v2/webhooks/${encodeURIComponent(webhookUrl)}`)).status).toBe(404);
    expect(await methods.delete.call(hook(s))).toBe(true);
  });

  test('below Pro (or unverified) activation fails with a clear 402 error', async () => {
    const freeToken = addUser(server(), 'frank', { workspaceId: server().workspaceId, role: 'Owner', plan: 'free' });
    const s = setup(
      { url: server().url, token: freeToken },
      {
        type: TRIGGER,
        webhookBaseUrl: baseUrl,
        parameters: { events: ['project.created'], workspaceIds: [] },
      },
    );
    const error = await methods.create.call(hook(s)).catch((e: unknown) => e as Error & { httpCode?: string; description?: string });
    expect(error).toBeInstanceOf(Error);
    expect((error as { httpCode?: string }).httpCode).toBe('402');
    expect((error as Error).message).toMatch(/Pro plan/);
    expect((error as { description?: string }).description).toMatch(/PAYMENT_REQUIRED/);
    expect((await client(server(), freeToken).get('/api/v2/webhooks')).body.items ?? []).toEqual([]);
  });
});
