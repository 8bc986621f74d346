import type { Page } from 'playwright-core';
import { client, type TestServer } from '../helpers/server';
import { addTasks, newProject } from '../helpers/fixtures-tasks';
import { automationServer, createAutomation } from '../automations/helpers';
import { browserAvailable, serverAndBrowser, seriousViolations, withScreenshot } from './browser';
import { BuilderPage } from './builder-page';

const run = browserAvailable() ? describe : describe.skip;

/** What the forms below refer to: a project with two tasks and a field, an agent with a command, a secret, another automation. */
async function fixtures(server: TestServer) {
  const api = client(server, server.token);
  const projectId = await newProject(server, 'Ops');
  const [alpha, beta] = await addTasks(server, projectId, [
    { content: 'Alpha', contentType: 'text/plain' },
    { content: 'Beta', contentType: 'text/plain' },
  ]);
  const field = (await api.post(`/api/v1/projects/${projectId}/fields`, { name: 'Size', type: 'string' })).body.item;
  const agent = (
    await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
      name: 'Helper',
      data: { type: 'agent', data: { commands: [{ name: 'Summarise', prompt: 'Summarise: {{ input }}' }] } },
    })
  ).body.item;
  await api.put(`/api/v1/workspaces/${server.workspaceId}/secrets/GITHUB_SECRET`, { value: 's3cret' });
  const child = await createAutomation(api, server.workspaceId, {
    name: 'Child',
    trigger: { type: 'webhook' },
    actions: [{ id: 'x', type: 'set', values: { a: 1 } }],
  });
  return {
    projectId,
    alpha: alpha!.id,
    beta: beta!.id,
    fieldId: field.id as string,
    agentId: agent.id as string,
    childId: child.id as string,
  };
}

async function savedDefinition(server: TestServer, page: Page): Promise<any> {
  await page.waitForURL(/\/automations\/[^/]+\/edit$/);
  const id = page.url().split('/').at(-2)!;
  return (await client(server, server.token).get(`/api/v1/automations/${id}`)).body.item;
}

/** Clicks Save and waits for the service's answer and the save's confirmation. */
async function save(page: Page): Promise<void> {
  const reason = page.locator('#save-reason');
  if (await reason.count()) throw new Error(`Save is disabled: ${await reason.textContent()}`);
  const answer = page.waitForResponse(
    (r) =>
      /\/api\/v1\/automations(\/[^/]+)?$/.test(new URL(r.url()).pathname) &&
      !new URL(r.url()).pathname.endsWith('/check') &&
      ['POST', 'PUT'].includes(r.request().method()),
  );
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const version = (await (await answer).json()).item.version;
  await page
    .getByRole('status', { name: 'Notifications' })
    .getByText(new RegExp(`^Saved “.*”, version ${version}$`))
    .waitFor();
}

/**
 * The automation builder's form view in a real Chromium against the real server: automations with
 * every trigger and every action kind of the catalogue built through the forms only (never the
 * JSON view), saved, and read back over the API.
 */
run('web app: the automation builder builds every kind through its forms', () => {
  const suite = serverAndBrowser(() => automationServer());
  let f: Awaited<ReturnType<typeof fixtures>>;
  beforeAll(async () => {
    f = await fixtures(suite.server);
  });

  test('one automation with every action kind, nested steps and an error path', async () => {
    const { server, browser } = suite;
    const kinds = (await client(server, server.token).get('/api/v1/automations/kinds')).body;
    const context = await browser.newContext({
      extraHTTPHeaders: { authorization: `Bearer ${server.token}` },
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    const b = new BuilderPage(page);
    try {
      await withScreenshot(page, 'builder-every-action', async () => {
        await page.goto(`${server.url}/automations/new?workspaceId=${server.workspaceId}`);
        await page.getByLabel('Name', { exact: true }).fill('Every action');
        await b.chooseTrigger('Webhook');
        const onTask = async (card: ReturnType<BuilderPage['card']>, task = 'Alpha') => {
          await b.choose(card, 'Project', 'Ops');
          await b.choose(card, 'Task', task);
        };
        let last = '';
        const add = async (title: string, id: string) => {
          const card = await b.add(last ? `Add a step after ${last}` : 'Add a step to Steps', title, id);
          last = id;
          return card;
        };

        let c = await add('Create a task', 'make');
        await b.choose(c, 'Project', 'Ops');
        // The data picker inserts a trigger variable at the caret.
        await b.fill(c, 'Text', 'Call ');
        await c.getByRole('button', { name: 'Insert data into Text' }).click();
        await c
          .getByRole('dialog', { name: 'Insert data into Text' })
          .getByRole('button', { name: /^trigger\.body/ })
          .first()
          .click();
        c = await add('Update a task', 'rename');
        await onTask(c);
        await b.fill(c, 'Text', 'Renamed');
        await onTask(await add('Complete a task', 'done'));
        await onTask(await add('Reopen a task', 'reopen'));
        c = await add('Assign a task', 'assign');
        await onTask(c);
        await c.getByLabel('Assignees: kind').selectOption({ label: 'Handles (list)' });
        await c.getByRole('button', { name: 'Add handle' }).click();
        await c.getByLabel('Handle 1', { exact: true }).selectOption('owner');
        c = await add('Set task dates', 'dates');
        await onTask(c);
        await c.getByRole('group', { name: 'Start' }).getByLabel('Date', { exact: true }).fill('2026-01-31');
        c = await add('Set task note', 'note');
        await onTask(c);
        await b.fill(c, 'Note', 'A note');
        c = await add('Set a field', 'size');
        await onTask(c);
        await b.choose(c, 'Field', 'Size');
        await b.fill(c, 'Value', 'L');
        c = await add('Move a task', 'move');
        await onTask(c);
        await b.choose(c, 'Target task', 'Beta');
        await b.fill(c, 'Position', 'afterend');
        c = await add('Add a comment', 'comment');
        await onTask(c);
        await b.fill(c, 'Comment', 'Seen');
        await onTask(await add('Get a task', 'get'), 'Beta');
        c = await add('Find tasks', 'find');
        await b.choose(c, 'Project', 'Ops');
        await b.fill(c, 'Text contains', 'pha');
        c = await add('Delete a task', 'remove');
        await b.choose(c, 'Project', 'Ops');
        // A task named by an earlier step's output: another value, from the data picker.
        await c.getByLabel('Task', { exact: true }).selectOption({ label: 'Another value or template…' });
        await c.getByRole('button', { name: 'Insert data into Task' }).click();
        const picker = c.getByRole('dialog', { name: 'Insert data into Task' });
        await picker.getByRole('searchbox', { name: 'Search data' }).fill('make.id');
        await picker.getByRole('button', { name: /^steps\.make\.id/ }).click();
        c = await add('Create a project', 'proj');
        await b.fill(c, 'Name', 'Review');
        c = await add('Send an HTTP request', 'call');
        await c.getByLabel('Method', { exact: true }).selectOption('POST');
        await b.fill(c, 'URL', 'https://example.com/hook');
        await c.getByLabel('Body: kind').selectOption({ label: 'JSON' });
        await b.code(c.getByRole('textbox', { name: 'JSON', exact: true }), '{"task": "{{ steps.make.id }}"}');
        await c.getByText('Settings: name, retries, timeout, errors').click();
        await c.getByLabel('When this step fails').selectOption('then');
        c = await b.add('Add a step to On error of call', 'Add a comment', 'tell');
        await onTask(c);
        await b.fill(c, 'Comment', 'Failed: {{ error.message }}');
        c = await add('Ask an agent', 'ask');
        await b.choose(c, 'Agent', 'Helper');
        await b.choose(c, 'Command', 'Summarise');
        await b.fill(c, 'Input', 'Hello');
        c = await add('Set values', 'vals');
        await c.getByRole('button', { name: 'Add values entry' }).click();
        await c.getByLabel('Values: name of entry 1', { exact: true }).fill('total');
        await b.code(c.getByRole('textbox', { name: 'Values: value of total', exact: true }), '3');
        c = await add('Run code', 'calc');
        await b.code(c.getByRole('textbox', { name: 'Code' }), 'return { ok: true };');
        c = await add('Send an email', 'mail');
        await b.fill(c, 'To', 'ann@example.com');
        await b.fill(c, 'Subject', 'Done: {{ steps.calc.ok }}');
        await b.fill(c, 'Text body', 'All set.');
        c = await add('Respond', 'answer');
        await b.fill(c, 'Status', '201');
        c = await add('Run another automation', 'child');
        await b.choose(c, 'Automation', 'Child');
        c = await add('If / else', 'route');
        await c.getByRole('button', { name: 'Add a condition' }).click();
        await c.getByLabel('Condition 1.1: value', { exact: true }).fill('{{ steps.calc.ok }}');
        await c.getByLabel('Condition 1.1: operator').selectOption('equals');
        await c.getByLabel('Condition 1.1: compared with', { exact: true }).fill('true');
        c = await b.add('Add a step to Then of route', 'Wait', 'pause');
        await b.fill(c, 'Minutes', '5');
        c = await b.add('Add a step to Else of route', 'Wait for an event', 'hold');
        await b.fill(c, 'Event name', 'erp.done');
        c = await add('Ask for approval', 'ok');
        await b.fill(c, 'Message', 'Go on?');
        await c.getByRole('button', { name: 'Add handle' }).click();
        await c.getByLabel('Handle 1', { exact: true }).selectOption('owner');
        c = await add('Loop over items', 'each');
        await b.fill(c, 'Items', '{{ trigger.items }}');
        c = await b.add('Add a step to For each item of each', 'Set values', 'item');
        await c.getByRole('button', { name: 'Add values entry' }).click();
        await c.getByLabel('Values: name of entry 1', { exact: true }).fill('n');
        await b.code(c.getByRole('textbox', { name: 'Values: value of n', exact: true }), '"{{ loop.index }}"');
        await add('Run in parallel', 'fan');
        c = await b.add('Add a step to branch1 of fan', 'Wait', 'p1');
        await b.fill(c, 'Seconds', '1');
        c = await b.add('Add a step to branch2 of fan', 'Wait', 'p2');
        await b.fill(c, 'Seconds', '2');

        await save(page);
        const saved = await savedDefinition(server, page);
        const on = (taskId = f.alpha) => ({ projectId: f.projectId, taskId });
        expect(saved.trigger).toEqual({ type: 'webhook' });
        expect(saved.actions).toEqual([
          { id: 'make', type: 'task.create', projectId: f.projectId, text: 'Call {{ trigger.body }}' },
          { id: 'rename', type: 'task.update', ...on(), text: 'Renamed' },
          { id: 'done', type: 'task.complete', ...on() },
          { id: 'reopen', type: 'task.uncomplete', ...on() },
          { id: 'assign', type: 'task.assign', ...on(), handles: ['owner'] },
          { id: 'dates', type: 'task.setDate', ...on(), start: { date: '2026-01-31' } },
          { id: 'note', type: 'task.setNote', ...on(), value: 'A note' },
          { id: 'size', type: 'task.setField', ...on(), fieldId: f.fieldId, value: 'L' },
          { id: 'move', type: 'task.move', ...on(), targetTaskId: f.beta, position: 'afterend' },
          { id: 'comment', type: 'comment.create', ...on(), text: 'Seen' },
          { id: 'get', type: 'task.get', ...on(f.beta) },
          { id: 'find', type: 'task.find', projectId: f.projectId, filter: { text: 'pha' } },
          { id: 'remove', type: 'task.delete', projectId: f.projectId, taskId: '{{ steps.make.id }}' },
          { id: 'proj', type: 'project.create', name: 'Review' },
          {
            id: 'call',
            type: 'http.request',
            method: 'POST',
            url: 'https://example.com/hook',
            body: { type: 'json', value: { task: '{{ steps.make.id }}' } },
            onError: { then: [{ id: 'tell', type: 'comment.create', ...on(), text: 'Failed: {{ error.message }}' }] },
          },
          { id: 'ask', type: 'agent.command', agentId: f.agentId, command: 'Summarise', input: 'Hello' },
          { id: 'vals', type: 'set', values: { total: 3 } },
          { id: 'calc', type: 'code', code: 'return { ok: true };' },
          { id: 'mail', type: 'email.send', to: 'ann@example.com', subject: 'Done: {{ steps.calc.ok }}', text: 'All set.' },
          { id: 'answer', type: 'respond', status: 201 },
          { id: 'child', type: 'automation.run', automationId: f.childId },
          {
            id: 'route',
            type: 'branch',
            conditions: { anyOf: [{ allOf: [{ left: '{{ steps.calc.ok }}', operator: 'equals', right: 'true' }] }] },
            then: [{ id: 'pause', type: 'delay', minutes: 5 }],
            else: [{ id: 'hold', type: 'wait.event', event: 'erp.done' }],
          },
          { id: 'ok', type: 'approval', message: 'Go on?', approvers: ['owner'] },
          {
            id: 'each',
            type: 'loop',
            items: '{{ trigger.items }}',
            actions: [{ id: 'item', type: 'set', values: { n: '{{ loop.index }}' } }],
          },
          {
            id: 'fan',
            type: 'parallel',
            branches: { branch1: [{ id: 'p1', type: 'delay', seconds: 1 }], branch2: [{ id: 'p2', type: 'delay', seconds: 2 }] },
          },
        ]);
        // Every built-in action kind of the catalogue is in it (piece kinds: test/pieces/).
        const used = new Set<string>();
        const walk = (steps: any[]) =>
          steps.forEach((s) => {
            used.add(s.type);
            for (const list of [s.then, s.else, s.actions, s.onError?.then, ...Object.values(s.branches ?? {})])
              if (Array.isArray(list)) walk(list);
          });
        walk(saved.actions);
        expect([...used].sort()).toEqual(
          kinds.actions
            .filter((k: { piece?: unknown }) => k.piece === undefined)
            .map((k: { type: string }) => k.type)
            .sort(),
        );

        // Test-run it from the builder: the saved version runs once as a test and its result shows.
        await page.getByRole('button', { name: 'Run test' }).click();
        // The service answers once the run ends or waits, or after 10 s.
        const result = page.getByLabel('Test run result');
        await result.waitFor({ timeout: 30_000 });
        const shown = await result.locator('strong').first().textContent();
        const runs = (await client(server, server.token).get(`/api/v1/automations/${saved.id}/runs?limit=10`)).body.items;
        expect(runs).toEqual([expect.objectContaining({ test: true, version: saved.version, status: shown })]);
        expect(b.errors).toEqual([]);
        expect(await seriousViolations(page)).toEqual([]);
      });
    } finally {
      await context.close();
    }
  }, 180_000);

  test('every trigger kind, configured through its form and saved', async () => {
    const { server, browser } = suite;
    const api = client(server, server.token);
    const { projectId, childId } = f;
    const kinds = (await api.get('/api/v1/automations/kinds')).body;
    const context = await browser.newContext({
      extraHTTPHeaders: { authorization: `Bearer ${server.token}` },
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(10000);
    const page = await context.newPage();
    const b = new BuilderPage(page);
    try {
      await withScreenshot(page, 'builder-every-trigger', async () => {
        await page.goto(`${server.url}/automations/new?workspaceId=${server.workspaceId}`);
        await page.getByLabel('Name', { exact: true }).fill('Every trigger');
        await b.chooseTrigger('Task added');
        const t = b.trigger();
        await t.getByRole('group', { name: 'Where' }).getByLabel('Project', { exact: true }).selectOption({ label: 'Ops' });
        const c = await b.add('Add a step to Steps', 'Wait', 'pause');
        await b.fill(c, 'Minutes', '1');
        await save(page);
        const id = (await savedDefinition(server, page)).id;
        const saved = async () => (await api.get(`/api/v1/automations/${id}`)).body.item.trigger;
        expect(await saved()).toEqual({ type: 'task.added', scope: { projectId } });

        /** Each trigger kind: its title, what to do in its form, and the trigger the service must store. */
        const cases: [string, () => Promise<void>, Record<string, unknown>][] = [
          ['Task completed', async () => t.getByLabel('Include own changes').check(), { type: 'task.completed', includeOwnChanges: true }],
          ['Task assigned', async () => undefined, { type: 'task.assigned' }],
          ['Task updated', async () => undefined, { type: 'task.updated' }],
          ['Task deleted', async () => undefined, { type: 'task.deleted' }],
          ['Task due', async () => undefined, { type: 'task.due' }],
          ['Comment added', async () => undefined, { type: 'comment.created' }],
          ['Field changed', () => b.fill(t, 'Field', 'Size'), { type: 'field.changed', field: 'Size' }],
          [
            'Project created',
            async () =>
              void (await t.getByRole('group', { name: 'Where' }).getByLabel('Folder', { exact: true }).selectOption({ index: 1 })),
            { type: 'project.created', scope: { folderId: server.workspaceId } },
          ],
          ['Project completed', async () => undefined, { type: 'project.completed' }],
          ['Member added to a project', async () => undefined, { type: 'project.assigned' }],
          ['Member joined a project', async () => undefined, { type: 'project.joined' }],
          ['Automation failed', () => b.choose(t, 'Automation', 'Child'), { type: 'automation.failed', automationId: childId }],
          [
            'Approval requested',
            async () => {
              await t.getByRole('button', { name: 'Add a condition' }).click();
              await t.getByLabel('Condition 1.1: value', { exact: true }).fill('{{ trigger.message }}');
              await t.getByLabel('Condition 1.1: operator').selectOption('contains');
              await t.getByLabel('Condition 1.1: compared with', { exact: true }).fill('pay');
            },
            {
              type: 'approval.requested',
              filter: { anyOf: [{ allOf: [{ left: '{{ trigger.message }}', operator: 'contains', right: 'pay' }] }] },
            },
          ],
          [
            'On a schedule',
            async () => {
              await b.fill(t, 'Cron expression', '30 8 * * 1');
              await b.fill(t, 'Time zone', 'Europe/Berlin');
              // The next five times, in that time zone.
              await t.getByText('At 08:30, only on Monday').waitFor();
              expect(await t.getByRole('list').filter({ hasText: '8:30' }).getByRole('listitem').count()).toBe(5);
            },
            { type: 'schedule', cron: '30 8 * * 1', timezone: 'Europe/Berlin' },
          ],
          [
            'Webhook',
            async () => {
              await t.getByRole('checkbox', { name: 'GET' }).check();
              await t.getByRole('group', { name: 'Verify signature' }).getByLabel('Scheme').selectOption('github');
              await t.getByRole('group', { name: 'Verify signature' }).getByLabel('Signing secret').selectOption('GITHUB_SECRET');
            },
            { type: 'webhook', methods: ['GET', 'POST'], verify: { type: 'github', secret: 'GITHUB_SECRET' } },
          ],
          [
            'Form submitted',
            async () => {
              await b.fill(t, 'Page heading', 'Sign up');
              await t.getByRole('button', { name: 'Add field' }).click();
              await b.fill(t, 'Variable name', 'email');
              await b.fill(t, 'Label', 'Email');
              await t.getByLabel('Kind').selectOption('text');
            },
            { type: 'form', title: 'Sign up', fields: [{ name: 'email', label: 'Email', type: 'text' }] },
          ],
          [
            'Called by an assistant',
            async () => {
              await b.fill(t, 'Tool name', 'quote_order');
              await b.fill(t, 'What the tool does', 'Prices an order.');
              await b.code(
                t.getByRole('textbox', { name: 'Input schema', exact: true }),
                '{"type": "object", "properties": {"product": {"type": "string"}}}',
              );
            },
            {
              type: 'mcp',
              toolName: 'quote_order',
              description: 'Prices an order.',
              inputSchema: { type: 'object', properties: { product: { type: 'string' } } },
            },
          ],
        ];
        for (const [title, configure, expected] of cases) {
          await b.chooseTrigger(title);
          await configure();
          await save(page);
          expect(await saved()).toEqual(expected);
        }
        const covered = new Set(['task.added', ...cases.map((c) => c[2].type)]);
        expect([...covered].sort()).toEqual(
          kinds.triggers
            .filter((k: { piece?: unknown }) => k.piece === undefined)
            .map((k: { type: string }) => k.type)
            .sort(),
        );
        expect(b.errors).toEqual([]);
      });
    } finally {
      await context.close();
    }
  }, 180_000);
});
