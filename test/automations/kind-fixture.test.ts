import { DEFAULT_REGISTRY } from '../../engine/src';
import { client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation } from './helpers';
import { TEXT_REVERSE_KIND } from './fixtures/text-reverse';

/**
 * Adding an action kind is one kind module (issue 36): the fixture `text.reverse`
 * (`fixtures/text-reverse.ts`), registered with the server, goes through the same registry as the
 * built-in kinds and the pieces' — the published schema, save validation, the catalogue the
 * builder is generated from, and step tests — with no other code. (A built-in kind's docs row is
 * held to the list by `test/docs/kinds-table.test.ts`.)
 */
describe('a kind module registered with the server', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  const definition = (step: Record<string, unknown>) => ({
    name: 'Fixture kind',
    trigger: { type: 'webhook' },
    actions: [{ id: 'flip', type: 'text.reverse', ...step }],
  });

  beforeAll(async () => {
    server = await automationServer({}, [TEXT_REVERSE_KIND]);
    api = client(server, server.token);
  });
  afterAll(() => server.close());

  test('is not a built-in kind', () => {
    expect(DEFAULT_REGISTRY.action('text.reverse')).toBeUndefined();
  });

  test('the catalogue lists it with its labels, parameters and output, and the published schema names it', async () => {
    const res = await api.get('/api/v1/automations/kinds');
    expect(res.status).toBe(200);
    const kind = res.body.actions.find((k: { type: string }) => k.type === 'text.reverse');
    expect(kind).toMatchObject({
      title: 'Reverse a text',
      category: 'Data',
      icon: 'braces',
      sideEffects: false,
      parameters: {
        type: 'object',
        required: ['text'],
        properties: { text: { title: 'Text', 'x-editor': 'template' }, times: { title: 'Times', maximum: 3 } },
      },
      output: { properties: { reversed: { type: 'string' } } },
    });
    const schema = (await api.get('/api/v1/automations/schema')).body;
    expect(schema.definitions.action.properties.type.enum).toContain('text.reverse');
  });

  test('saving validates it against its parameters', async () => {
    const missing = await api.post('/api/v1/automations', { workspaceId: server.workspaceId, ...definition({}) });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'actions[0].text' } });
    const tooMany = await api.post('/api/v1/automations', { workspaceId: server.workspaceId, ...definition({ text: 'x', times: 9 }) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details.field).toBe('actions[0].times');
    const unknown = await api.post('/api/v1/automations', {
      workspaceId: server.workspaceId,
      ...definition({ type: 'text.rotate', text: 'x' }),
    });
    expect(unknown.status).toBe(400);
  });

  test('a step test runs its executor with the trigger sample', async () => {
    const automation = await createAutomation(api, server.workspaceId, definition({ text: '{{ trigger.body.word }}', times: 2 }), {
      enabled: false,
    });
    const res = await api.post(`/api/v1/automations/${automation.id}/steps/flip/test`, { trigger: { body: { word: 'abc' } } });
    expect(res.status).toBe(200);
    expect(res.body.item).toMatchObject({ stepId: 'flip', type: 'text.reverse', status: 'succeeded', output: { reversed: 'cbacba' } });
  });
});
