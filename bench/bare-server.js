'use strict';
// The baseline: a bare Fastify app with the same response shapes and schemas as the API's
// task routes, but no auth, no rate limit and no database. Prints its URL on stdout.
const Fastify = require('fastify');

const task = {
  type: 'object',
  properties: { id: { type: 'string' }, text: { type: 'string' }, completed: { type: 'boolean' }, parentId: { type: 'string' } },
};
const oneTask = { id: '0b8f5c3e-3f1e-4a55-9a3c-2d7c1f1c9a11', text: 'Write the quarterly report', completed: false };
const hundred = Array.from({ length: 100 }, (_, i) => ({ ...oneTask, text: `Task ${i}` }));

const app = Fastify({ logger: false });
app.get('/task', { schema: { response: { 200: { type: 'object', properties: { ok: { type: 'boolean' }, item: task } } } } }, async () => ({ ok: true, item: oneTask }));
app.get('/tasks', { schema: { response: { 200: { type: 'object', properties: { ok: { type: 'boolean' }, items: { type: 'array', items: task } } } } } }, async () => ({ ok: true, items: hundred }));
app.post(
  '/tasks',
  {
    schema: {
      body: { type: 'object', required: ['tasks'], properties: { tasks: { type: 'array', items: { type: 'object', required: ['content'], properties: { content: { type: 'string', maxLength: 2000 } } } } } },
      response: { 200: { type: 'object', properties: { ok: { type: 'boolean' }, item: { type: 'array', items: task } } } },
    },
  },
  async (request) => ({ ok: true, item: request.body.tasks.map((t) => ({ ...oneTask, text: t.content })) }),
);
app.listen({ port: 0, host: '127.0.0.1' }).then((address) => process.stdout.write(`listening on ${address}\n`));
