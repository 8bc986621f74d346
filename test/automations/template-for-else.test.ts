import { client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation } from './helpers';

/**
 * A loop tag's `else` branch over a missing list (issue 35, item 13; docs/automations.md,
 * "Variables"): `{% for x in trigger.items %}…{% else %}…{% endfor %}` takes the `else` branch
 * when the webhook sent no `items`, as it does for an empty list; without `else` a missing list
 * stays a TEMPLATE_ERROR, so a misspelt name is not silently empty.
 */
describe('templates: for … else over a missing list', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
  });
  afterAll(() => server.close());

  async function render(template: string, payload: Record<string, unknown>) {
    const a = await createAutomation(api, server.workspaceId, {
      name: 'For else',
      trigger: { type: 'webhook' },
      actions: [{ id: 'out', type: 'set', values: { text: template } }],
    });
    return (await api.post(`/api/v1/automations/${a.id}/test`, { payload })).body.item;
  }

  const loop = '{% for x in trigger.items %}[{{ x }}]{% else %}no items{% endfor %}';

  test('a missing, null or empty list takes the else branch; a list is walked', async () => {
    for (const payload of [{}, { items: null }, { items: [] }]) {
      const run = await render(loop, payload);
      expect(run.status).toBe('completed');
      expect(run.steps[0].output).toEqual({ text: 'no items' });
    }
    expect((await render(loop, { items: ['a', 'b'] })).steps[0].output).toEqual({ text: '[a][b]' });
    expect((await render('{% for x in trigger.order.lines limit: 1 %}{{ x }}{% else %}none{% endfor %}', {})).steps[0].output).toEqual({
      text: 'none',
    });
  });

  test('without else, a missing list is still a TEMPLATE_ERROR naming it', async () => {
    const run = await render('{% for x in trigger.itmes %}[{{ x }}]{% endfor %}', { items: ['a'] });
    expect(run).toMatchObject({ status: 'failed', error: { code: 'TEMPLATE_ERROR' } });
    expect(run.error.message).toContain('trigger.itmes');
  });
});
