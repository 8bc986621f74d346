import { call, spawnServer, tempDataDir, OWNER_TOKEN, type ChildServer } from '../helpers/server';
import { waitFor } from '../helpers/wait';

/** "Secrets are never logged": the request log of a real server at info level. */
describe('request logs', () => {
  let server: ChildServer;
  beforeAll(async () => {
    // spawnServer runs server/dist: `npm test` builds it first; alone, run `npx tsc -b server`.
    server = await spawnServer(tempDataDir(), { TASKSPACE_LOG_LEVEL: 'info' });
  });
  afterAll(() => server.stop());

  test('secret path segments, query strings and bearer tokens never reach the log', async () => {
    const secrets = [
      'SECRETHOOKID0123456789',
      'SECRETSHARETOKEN0123456789',
      'SECRETPUBLICAGENT01234',
      'hooks.example.com%2Fsecret-path',
      'querysecret',
    ];
    await call(server.url, 'POST', `/webhooks/${secrets[0]}`, { body: {} });
    await call(server.url, 'GET', `/share/${secrets[1]}/view`);
    await call(server.url, 'GET', `/public/agents/${secrets[2]}`);
    await call(server.url, 'GET', `/api/v2/webhooks/https%3A%2F%2F${secrets[3]}/deliveries`, { token: OWNER_TOKEN });
    await call(server.url, 'GET', `/api/v1/workspaces?token=${secrets[4]}`, { token: OWNER_TOKEN });
    await new Promise((resolve) => setTimeout(resolve, 300)); // let pino flush its last lines
    const log = server.output();
    expect(log).toContain('"url":"/webhooks/***"');
    expect(log).toContain('"url":"/share/***/view"');
    expect(log).toContain('"url":"/api/v1/workspaces?…"');
    for (const secret of [...secrets, OWNER_TOKEN]) expect(log).not.toContain(secret);
  });

  test('a hosted form id is masked like a webhook id, for the page and for posts', async () => {
    const formId = 'SECRETFORMID0123456789';
    await call(server.url, 'GET', `/forms/${formId}`);
    await call(server.url, 'POST', `/forms/${formId}`, { body: { a: 1 } });
    await waitFor(() => (server.output().match(/"url":"\/forms\/\*\*\*"/g)?.length ?? 0) >= 2, 'both form requests in the log');
    expect(server.output()).not.toContain(formId);
  });
});
