import { startServer, type TestServer } from '../helpers/server';
import { runNode } from './harness';

let server: TestServer;
beforeAll(async () => {
	server = await startServer();
});
afterAll(async () => server?.close());

test('workspaces', async () => {
	const r = await runNode(server, { type: 'n8n-nodes-taskspace.taskspaceProject', parameters: { resource: 'workspace', operation: 'getMany' } });
	console.log(JSON.stringify(r.items), r.error);
});
