import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation, receiver, runWithStatus, runsOf, waitFor } from './helpers';

/** A server that takes requests and never answers them; notes each one and when its caller hung up. */
async function silentServer() {
  const seen: { url: string; closed: boolean }[] = [];
  const server = http.createServer((req) => {
    const entry = { url: req.url!, closed: false };
    seen.push(entry);
    req.socket.on('close', () => (entry.closed = true));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Error paths, disabled steps, timeouts and cancels that stop work in flight (docs/automations.md "Error paths", "Timeouts"). */
describe('error paths and timeouts', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let rx: Awaited<ReturnType<typeof receiver>>;
  let silent: Awaited<ReturnType<typeof silentServer>>;
  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    rx = await receiver((r) =>
      r.url.startsWith('/bad') ? { status: 422, body: { problem: 'no such sku' } } : { status: 200, body: { ok: true } },
    );
    silent = await silentServer();
  });
  afterAll(async () => {
    await rx.close();
    await silent.close();
    await server.close();
  });

  async function testRun(actions: Record<string, unknown>[], payload: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
    const automation = await createAutomation(api, server.workspaceId, { name: 'Errors', trigger: { type: 'webhook' }, actions, ...extra });
    const res = await api.post(`/api/v1/automations/${automation.id}/test`, { payload });
    expect(res.status).toBe(200);
    return res.body.item;
  }

  test('onError "continue" records the failure and goes on, with the error as the step output', async () => {
    const run = await testRun(
      [
        { id: 'make', type: 'task.create', projectId: '{{ trigger.projectId }}', text: 'x', onError: 'continue' },
        { id: 'after', type: 'set', values: { code: '{{ steps.make.error.code }}', failed: '{{ steps.make.error.stepId }}' } },
      ],
      { projectId: 'no-such-project' },
    );
    expect(run.status).toBe('completed');
    expect(run.error).toBeUndefined();
    const [make, after] = run.steps;
    expect(make).toMatchObject({ id: 'make', status: 'failed', error: { code: 'NOT_FOUND' } });
    expect(after.output).toEqual({ code: 'NOT_FOUND', failed: 'make' });
  });

  test('onError {then} runs the error path with `error` in scope, then the steps after', async () => {
    const run = await testRun([
      {
        id: 'order',
        type: 'http.request',
        method: 'POST',
        url: `${rx.url}/bad`,
        onError: {
          then: [
            {
              id: 'explain',
              type: 'set',
              values: { why: '{{ error.message }}', status: '{{ error.status }}', body: '{{ error.details.body }}' },
            },
          ],
        },
      },
      { id: 'next', type: 'set', values: { reached: true } },
    ]);
    expect(run.status).toBe('completed');
    expect(run.steps.map((s: any) => [s.id, s.status])).toEqual([
      ['order', 'failed'],
      ['explain', 'succeeded'],
      ['next', 'succeeded'],
    ]);
    expect(run.steps[1].output).toEqual({ why: `POST ${rx.url}/bad answered 422`, status: 422, body: '{"problem":"no such sku"}' });

    // A failure inside the error path ends the run.
    const worse = await testRun([
      {
        id: 'order',
        type: 'http.request',
        method: 'POST',
        url: `${rx.url}/bad`,
        onError: { then: [{ id: 'alert', type: 'http.request', method: 'POST', url: `${rx.url}/bad/again` }] },
      },
      { id: 'never', type: 'set', values: { reached: true } },
    ]);
    expect(worse).toMatchObject({ status: 'failed', error: { stepId: 'alert', code: 'HTTP_STATUS' } });
    expect(worse.steps.map((s: any) => s.id)).toEqual(['order', 'alert']);
  });

  test('a disabled step, with what it holds, is skipped and not journalled', async () => {
    const before = rx.received.length;
    const run = await testRun([
      { id: 'call', type: 'http.request', method: 'POST', url: `${rx.url}/disabled`, disabled: true },
      {
        id: 'gate',
        type: 'branch',
        disabled: true,
        conditions: { anyOf: [{ allOf: [{ left: '1', operator: 'equals', right: '1' }] }] },
        then: [{ id: 'inner', type: 'set', values: { a: 1 } }],
      },
      { id: 'on', type: 'set', values: { ran: true } },
    ]);
    expect(run.status).toBe('completed');
    expect(run.steps.map((s: any) => s.id)).toEqual(['on']);
    expect(rx.received.slice(before).some((r) => r.url === '/disabled')).toBe(false);
  });

  test('definitions with a broken error path or a bad onError are refused, naming the field', async () => {
    const dup = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Dup',
      trigger: { type: 'webhook' },
      actions: [{ id: 'a', type: 'set', values: { x: 1 }, onError: { then: [{ id: 'a', type: 'set', values: { y: 1 } }] } }],
    });
    expect(dup.status).toBe(400);
    expect(dup.body.error.details).toEqual({ field: 'actions[0].onError.then[0].id', reason: 'duplicate' });
    const bad = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      name: 'Bad',
      trigger: { type: 'webhook' },
      actions: [{ id: 'a', type: 'set', values: { x: 1 }, onError: 'ignore' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('actions[0].onError');
  });

  test('a run past its timeoutMs fails with RUN_TIMEOUT, aborting the HTTP call in flight or ending a wait', async () => {
    const started = Date.now();
    const slow = await testRun(
      [{ id: 'hang', type: 'http.request', method: 'GET', url: `${silent.url}/hang`, onError: 'continue' }],
      {},
      { timeoutMs: 1000 },
    );
    expect(slow).toMatchObject({ status: 'failed', error: { code: 'RUN_TIMEOUT', stepId: 'hang' } });
    expect(slow.steps[0]).toMatchObject({ status: 'failed', error: { code: 'RUN_TIMEOUT' } });
    // The 30 s HTTP timeout did not have to pass, and the request was aborted.
    expect(Date.now() - started).toBeLessThan(30_000);
    await waitFor(() => silent.seen.find((s) => s.url === '/hang')?.closed, 'the hung request to be aborted');

    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Waits too long',
      trigger: { type: 'webhook' },
      timeoutMs: 1500,
      actions: [
        { id: 'nap', type: 'delay', hours: 1 },
        { id: 'late', type: 'set', values: { a: 1 } },
      ],
    });
    const waiting = (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: {} })).body.item;
    expect(waiting.status).toBe('waiting');
    const failed = await runWithStatus(api, automation.id, waiting.id, 'failed');
    expect(failed.error).toMatchObject({ code: 'RUN_TIMEOUT' });
    expect(failed.steps.map((s: any) => s.id)).toEqual(['nap']);
  });

  test('cancelling a run aborts its HTTP call in flight', async () => {
    const automation = await createAutomation(api, server.workspaceId, {
      name: 'Calls a slow server',
      trigger: { type: 'webhook' },
      actions: [{ id: 'wait', type: 'http.request', method: 'GET', url: `${silent.url}/cancel-me`, timeoutMs: 120_000 }],
    });
    const sent = await request(automation.webhook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await sent.body.dump();
    await waitFor(() => silent.seen.some((s) => s.url === '/cancel-me'), 'the call to reach the slow server');
    const [run] = await runsOf(api, automation.id);
    const cancelled = await api.post(`/api/v1/automations/${automation.id}/runs/${run.id}/cancel`, {});
    expect(cancelled.status).toBe(200);
    const ended = await runWithStatus(api, automation.id, run.id, 'cancelled', 10_000);
    expect(ended.steps[0]).toMatchObject({ id: 'wait', status: 'failed', error: { code: 'CANCELLED' } });
    await waitFor(() => silent.seen.find((s) => s.url === '/cancel-me')?.closed, 'the request to be aborted');
  });
});
