import { call, client, type TestServer } from '../helpers/server';
import { allTasks, newProject } from '../helpers/fixtures-tasks';
import { automationServer, createAutomation, receiver, runsOf, runWithStatus, waitFor } from './helpers';

/**
 * Failure alerts: a failed run raises `automation.failed`, which starts failure-handler
 * automations (never for their own failures) and is delivered to signed webhooks.
 */
describe('failure alerts', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let rx: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    rx = await receiver(() => ({ status: 400, body: { error: 'refused' } }));
  });
  afterAll(async () => {
    await rx?.close();
    await server?.close();
  });

  test('a failure starts the handlers, a failing handler alerts the others but never itself, and a signed webhook gets it', async () => {
    const projectId = await newProject(server, 'Alerts');
    const hooks = await receiver();
    try {
      expect((await api.post('/api/v2/webhooks', { targetUrl: `${hooks.url}/alerts`, events: ['automation.failed'] })).status).toBe(200);
      const failing = await createAutomation(api, server.workspaceId, {
        name: 'Sync orders',
        trigger: { type: 'webhook' },
        actions: [{ id: 'push', type: 'http.request', method: 'POST', url: `${rx.url}/orders` }],
      });
      const handler = await createAutomation(api, server.workspaceId, {
        name: 'Tell the team',
        trigger: { type: 'automation.failed' },
        actions: [
          {
            id: 'note',
            type: 'task.create',
            projectId,
            text: '{{ trigger.automationName }} failed at {{ trigger.error.stepId }}: {{ trigger.error.code }}',
          },
        ],
      });
      const onlySync = await createAutomation(api, server.workspaceId, {
        name: 'Only for sync',
        trigger: { type: 'automation.failed', automationId: failing.id },
        actions: [{ id: 'seen', type: 'set', values: { run: '{{ trigger.runId }}' } }],
      });
      const brokenHandler = await createAutomation(api, server.workspaceId, {
        name: 'Broken handler',
        trigger: { type: 'automation.failed' },
        // Built by a template: a literal unknown project is refused when saving.
        actions: [{ id: 'oops', type: 'task.create', projectId: "{{ 'no-such-project' }}", text: 'x' }],
      });

      // A failed test run raises nothing; then a real call fails.
      const test = (await api.post(`/api/v1/automations/${failing.id}/test`, {})).body.item;
      await runWithStatus(api, failing.id, test.id, 'failed');
      const res = await call(server.url, 'POST', new URL(failing.webhook.url).pathname, { body: { order: 7 } });
      expect(res.status).toBe(200);

      const texts = await waitFor(async () => {
        const list = (await allTasks(server, projectId)).map((t) => t.text);
        return list.length >= 2 && list;
      }, 'two alert tasks');
      expect(texts.sort()).toEqual(['Broken handler failed at oops: NOT_FOUND', 'Sync orders failed at push: HTTP_STATUS'].sort());

      const [real] = (await runsOf(api, failing.id)).filter((r) => !r.test);
      const handled = (await runsOf(api, handler.id)).map((r) => r.trigger.variables);
      expect(handled).toContainEqual(
        expect.objectContaining({
          automationId: failing.id,
          automationName: 'Sync orders',
          runId: real.id,
          version: 1,
          runLink: `${server.url}/automations/${failing.id}/runs/${real.id}`,
        }),
      );
      // The filtered handler saw only "Sync orders"; the broken handler ran once (for Sync orders), never for its own failure.
      await waitFor(async () => (await runsOf(api, onlySync.id)).length === 1, 'the filtered handler ran');
      expect((await runsOf(api, brokenHandler.id)).map((r) => r.trigger.variables.automationId)).toEqual([failing.id]);
      expect(await allTasks(server, projectId)).toHaveLength(2);

      const alerts = await waitFor(
        () => hooks.received.filter((r) => r.url === '/alerts').length >= 2 && hooks.received.filter((r) => r.url === '/alerts'),
        'signed alerts',
      );
      const bodies = alerts.map((a) => JSON.parse(a.body));
      expect(bodies.map((b) => [b.type, b.workspaceId, b.payload.automationName]).sort()).toEqual(
        [
          ['automation.failed', server.workspaceId, 'Broken handler'],
          ['automation.failed', server.workspaceId, 'Sync orders'],
        ].sort(),
      );
      expect(alerts[0]!.headers['x-service-event']).toBe('automation.failed');
      expect(alerts[0]!.headers['x-service-signature']).toEqual(expect.any(String));
    } finally {
      await hooks.close();
    }
  });
});
