import { addUser, client, startServer, type TestServer } from '../helpers/server';
import { StreamingProvider, streamingProviderEnv } from '../helpers/streaming-provider';
import { waitFor } from '../helpers/wait';

/** One parsed server-sent event. */
interface Event {
  event: string;
  data: any;
}

/** A streamed answer being read over real HTTP, one event at a time. */
interface OpenStream {
  status: number;
  contentType: string;
  /** The next event; undefined once the stream has ended. */
  next(): Promise<Event | undefined>;
  /** The body of a non-stream answer (an error before the stream started). */
  json(): Promise<any>;
  /** Gives up: the connection is closed. */
  abort(): void;
}

/** POSTs `body` to `path` asking for the event stream. */
async function openStream(server: TestServer, path: string, body: unknown, token = server.token): Promise<OpenStream> {
  const controller = new AbortController();
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    async next() {
      for (;;) {
        const end = pending.indexOf('\n\n');
        if (end >= 0) {
          const block = pending.slice(0, end);
          pending = pending.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data !== undefined) return { event, data: JSON.parse(data) };
          continue;
        }
        const { value, done } = await reader.read();
        if (done) return undefined;
        pending += decoder.decode(value, { stream: true });
      }
    },
    async json() {
      let text = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return JSON.parse(text);
        text += decoder.decode(value, { stream: true });
      }
    },
    abort: () => controller.abort(),
  };
}

const roleContent = (m: { role: string; content: string }) => `${m.role}: ${m.content}`;

describe('streamed answers of agent commands and follow-ups (Accept: text/event-stream)', () => {
  const provider = new StreamingProvider();
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let agentId: string;
  beforeAll(async () => {
    server = await startServer({ env: streamingProviderEnv(await provider.start()) });
    api = client(server, server.token);
    agentId = (
      await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
        name: 'Streamer',
        data: { type: 'agent', data: { commands: [{ id: 'ask', name: 'Ask', prompt: '{{ input }}' }] } },
      })
    ).body.item.id;
  });
  afterAll(async () => {
    await server.close();
    await provider.stop();
  });

  test('each chunk is forwarded before the provider sends the next; the stored conversation is the streamed text', async () => {
    const run = await openStream(server, `/api/v1/agents/${agentId}/convos`, { command: 'ask', input: 'Plan the offsite' });
    expect(run.status).toBe(200);
    expect(run.contentType).toMatch(/^text\/event-stream/);
    const upstream = await provider.next();
    expect(upstream.body.stream).toBe(true);
    const start = await run.next();
    expect(start?.event).toBe('start');
    expect(start?.data.item.status).toBe('in_progress');
    expect(start?.data.item.data.messages.map(roleContent)).toEqual(['user: Plan the offsite']);

    // The provider holds the rest until the client has the first chunk: streaming, not buffering.
    upstream.send('Day one: ');
    expect(await run.next()).toEqual({ event: 'delta', data: { text: 'Day one: ' } });
    // A comment, CRLF line ends and an event split across two writes are read as the SSE format says.
    upstream.raw(': keep-alive\r\n\r\ndata: {"choices":[{"index":0,"delta":{"content":"arr');
    upstream.raw('ive. "},"finish_reason":null}]}\r\n\r\n');
    expect(await run.next()).toEqual({ event: 'delta', data: { text: 'arrive. ' } });
    upstream.send('Day two: talks.');
    expect(await run.next()).toEqual({ event: 'delta', data: { text: 'Day two: talks.' } });
    upstream.finish();
    const done = await run.next();
    expect(done?.event).toBe('done');
    expect(done?.data.ok).toBe(true);
    expect(done?.data.item.status).toBe('idle');
    expect(done?.data.item.data.llm.model).toBe('fake-stream-1');
    expect(await run.next()).toBeUndefined();
    const convoId = done!.data.item.id;
    const stored = (await api.get(`/api/v1/agents/${agentId}/convos/${convoId}`)).body.item;
    expect(stored).toEqual(done!.data.item);
    expect(stored.data.messages.map(roleContent)).toEqual(['user: Plan the offsite', 'assistant: Day one: arrive. Day two: talks.']);

    // A follow-up streams the same way; while it answers, another message is refused (409, JSON).
    const follow = await openStream(server, `/api/v1/agents/${agentId}/convos/${convoId}/messages`, { text: 'Shorter?' });
    const second = await provider.next();
    expect(second.body.messages.map(roleContent).slice(1)).toEqual([
      'user: Plan the offsite',
      'assistant: Day one: arrive. Day two: talks.',
      'user: Shorter?',
    ]);
    expect((await follow.next())?.event).toBe('start');
    const busy = await openStream(server, `/api/v1/agents/${agentId}/convos/${convoId}/messages`, { text: 'Hello?' });
    expect(busy.status).toBe(409);
    expect(busy.contentType).toMatch(/^application\/json/);
    expect((await busy.json()).code).toBe('CONFLICT');
    second.send('Two ');
    expect(await follow.next()).toEqual({ event: 'delta', data: { text: 'Two ' } });
    second.send('days.');
    expect(await follow.next()).toEqual({ event: 'delta', data: { text: 'days.' } });
    second.finish();
    const answered = await follow.next();
    expect(answered?.event).toBe('done');
    expect(answered?.data.item.data.messages.map(roleContent).slice(2)).toEqual(['user: Shorter?', 'assistant: Two days.']);

    // Without the Accept header the answer is the JSON conversation, as before.
    provider.reply = 'Three days.';
    const whole = await api.post(`/api/v1/agents/${agentId}/convos/${convoId}/messages`, { text: 'Longer?' });
    expect(whole.status).toBe(200);
    expect(whole.body.ok).toBe(true);
    expect(whole.body.item.data.messages.map(roleContent).slice(4)).toEqual(['user: Longer?', 'assistant: Three days.']);
  });

  test('checks answer as usual before the stream starts: 404, 400 and 403 in the JSON envelope', async () => {
    const unknown = await openStream(server, `/api/v1/agents/${agentId}/convos/00000000-0000-4000-8000-000000000000/messages`, {
      text: 'x',
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    const bad = await openStream(server, `/api/v1/agents/${agentId}/convos`, { command: '' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
    const viewer = addUser(server, 'stream-viewer', { workspaceId: server.workspaceId, role: 'Viewer' });
    const refused = await openStream(server, `/api/v1/agents/${agentId}/convos`, { command: 'ask', input: 'x' }, viewer);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ ok: false, code: 'FORBIDDEN' });
  });

  test('an upstream error mid-answer ends the stream with an error event and stores no part of the answer', async () => {
    const run = await openStream(server, `/api/v1/agents/${agentId}/convos`, { command: 'ask', input: 'Will it fail?' });
    const upstream = await provider.next();
    const start = await run.next();
    const convoId = start!.data.item.id;
    upstream.send('Half an ');
    expect(await run.next()).toEqual({ event: 'delta', data: { text: 'Half an ' } });
    upstream.breakOff();
    const failed = await run.next();
    expect(failed?.event).toBe('error');
    expect(failed?.data).toMatchObject({
      ok: false,
      code: 'UPSTREAM_ERROR',
      statusMessage: 'Bad Gateway',
      error: { code: 'UPSTREAM_ERROR' },
    });
    expect(failed?.data.message).toMatch(/broke off/);
    expect(await run.next()).toBeUndefined();
    let stored = (await api.get(`/api/v1/agents/${agentId}/convos/${convoId}`)).body.item;
    expect(stored.status).toBe('requires_review');
    expect(stored.data.messages.map(roleContent)).toEqual(['user: Will it fail?']);

    // An error chunk from the provider: its message is passed on.
    const follow = await openStream(server, `/api/v1/agents/${agentId}/convos/${convoId}/messages`, { text: 'Again?' });
    const second = await provider.next();
    expect((await follow.next())?.event).toBe('start');
    second.send('Almost');
    expect((await follow.next())?.event).toBe('delta');
    second.failWith('the model is overloaded');
    const errored = await follow.next();
    expect(errored?.event).toBe('error');
    expect(errored?.data.error).toEqual({
      code: 'UPSTREAM_ERROR',
      message: 'the model provider failed mid-answer: the model is overloaded',
    });
    stored = (await api.get(`/api/v1/agents/${agentId}/convos/${convoId}`)).body.item;
    expect(stored.status).toBe('requires_review');
    expect(stored.data.messages.map(roleContent)).toEqual(['user: Will it fail?', 'user: Again?']);
  });

  test('a provider that answers whole to a stream request gives one delta; an answer over the size limit is an error event', async () => {
    provider.streams = false;
    provider.reply = 'All at once.';
    try {
      const run = await openStream(server, `/api/v1/agents/${agentId}/convos`, { command: 'ask', input: 'No stream' });
      const events: Event[] = [];
      for (let e = await run.next(); e; e = await run.next()) events.push(e);
      expect(events.map((e) => e.event)).toEqual(['start', 'delta', 'done']);
      expect(events[1]!.data).toEqual({ text: 'All at once.' });
      expect(events[2]!.data.item.data.messages.at(-1)).toEqual({ role: 'assistant', content: 'All at once.' });
    } finally {
      provider.streams = true;
    }

    const big = await openStream(server, `/api/v1/agents/${agentId}/convos`, { command: 'ask', input: 'Too long' });
    const upstream = await provider.next();
    const convoId = (await big.next())!.data.item.id;
    upstream.send('x'.repeat(8 * 1024 * 1024 + 1));
    const events: Event[] = [];
    for (let e = await big.next(); e; e = await big.next()) events.push(e);
    expect(events.at(-1)?.event).toBe('error');
    expect(events.at(-1)?.data.message).toBe("the model provider's answer is larger than 8388608 bytes");
    await waitFor(() => upstream.closed, 'the provider request closed');
    const stored = (await api.get(`/api/v1/agents/${agentId}/convos/${convoId}`)).body.item;
    expect(stored.status).toBe('requires_review');
    expect(stored.data.messages.map(roleContent)).toEqual(['user: Too long']);
  });

  test('a client that goes away stops the provider request; nothing of the answer is stored', async () => {
    const run = await openStream(server, `/api/v1/agents/${agentId}/convos`, { command: 'ask', input: 'Stop me' });
    const upstream = await provider.next();
    const convoId = (await run.next())!.data.item.id;
    upstream.send('Begin');
    expect(await run.next()).toEqual({ event: 'delta', data: { text: 'Begin' } });
    run.abort();
    await waitFor(() => upstream.closed, 'the provider request closed after the client went away');
    const stored = await waitFor(async () => {
      const item = (await api.get(`/api/v1/agents/${agentId}/convos/${convoId}`)).body.item;
      return item.status === 'requires_review' && item;
    }, 'the stopped conversation recorded as failed');
    expect(stored.data.messages.map(roleContent)).toEqual(['user: Stop me']);
  });
});

describe('streamed answers of the offline model', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  test('the offline answer comes in several deltas whose text is the stored answer', async () => {
    const api = client(server, server.token);
    const agentId = (
      await api.post(`/api/v1/folders/${server.workspaceId}/agents`, {
        name: 'Offline',
        data: { type: 'agent', data: { commands: [{ id: 'ask', name: 'Ask', prompt: '{{ input }}' }] } },
      })
    ).body.item.id;
    const run = await openStream(server, `/api/v1/agents/${agentId}/convos`, { command: 'ask', input: 'one two three four five six' });
    const events: Event[] = [];
    for (let e = await run.next(); e; e = await run.next()) events.push(e);
    expect(events.map((e) => e.event)).toEqual(['start', 'delta', 'delta', 'delta', 'done']);
    const text = events.filter((e) => e.event === 'delta').map((e) => e.data.text);
    expect(text.join('')).toBe('[offline] one two three four five six');
    expect(events.at(-1)!.data.item.data.messages.at(-1)).toEqual({ role: 'assistant', content: text.join('') });
  });
});
