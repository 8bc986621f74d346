import { call, client, type TestServer } from '../helpers/server';
import { automationServer, createAutomation, runsOf, settledRuns } from './helpers';
import { newProject } from '../helpers/fixtures-tasks';
import { dbOf } from '../helpers/db';

/**
 * Form trigger (docs "Automations", "Form trigger"): a hosted, public page generated from field
 * definitions; browser form posts and JSON posts checked against the fields; the values become
 * the run's trigger variables; a thank-you message or redirect; an optional token.
 */
describe('form trigger', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let projectId: string;
  let signup: any;
  const formPost = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    call(server.url, 'POST', path, {
      rawBody: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
  const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

  const FIELDS = [
    { name: 'name', label: 'Your <name>', type: 'text', required: true, placeholder: 'Ada Lovelace' },
    { name: 'seats', label: 'Seats', type: 'number', help: 'How many people' },
    { name: 'plan', label: 'Plan', type: 'choice', options: ['free', 'pro'], required: true },
    { name: 'start', label: 'Start date', type: 'date' },
    { name: 'terms', label: 'I accept the terms', type: 'checkbox', required: true },
    { name: 'notes', label: 'Notes', type: 'text', multiline: true },
  ];

  beforeAll(async () => {
    server = await automationServer();
    api = client(server, server.token);
    projectId = await newProject(server, 'Signups');
    signup = await createAutomation(api, server.workspaceId, {
      name: 'Signup form',
      trigger: {
        type: 'form',
        title: 'Sign up',
        description: 'Tell us about your team.',
        fields: FIELDS,
        submitLabel: 'Send',
        thankYou: 'Thanks, we will be in touch.',
      },
      actions: [
        {
          id: 'make',
          type: 'task.create',
          projectId,
          text: '{{ trigger.name }} wants {{ trigger.plan }} for {{ trigger.seats | default: 1 }}',
        },
      ],
    });
  });
  afterAll(() => server.close());

  test('the page is generated from the fields: labelled controls, escaped text, no scripts, not frameable', async () => {
    expect(signup.webhook.formUrl).toBe(`${server.url}/forms/${signup.webhook.id}`);
    const page = await call(server.url, 'GET', pathOf(signup.webhook.formUrl));
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(page.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    const html: string = page.body;
    expect(html).toContain('<h1>Sign up</h1>');
    expect(html).toContain('Your &lt;name&gt;');
    expect(html).not.toContain('<name>');
    expect(html).not.toContain('<script');
    expect(html).toMatch(/<label for="f-name">/);
    expect(html).toMatch(/<input type="text" id="f-name" name="name" required/);
    expect(html).toMatch(/<input type="number" step="any" id="f-seats"[^>]*aria-describedby="f-seats-help"/);
    expect(html).toMatch(/<select id="f-plan" name="plan" required><option value="">Choose…<\/option><option value="free">free<\/option>/);
    expect(html).toMatch(/<input type="date" id="f-start"/);
    expect(html).toMatch(/<input type="checkbox" value="on" id="f-terms" name="terms" required/);
    expect(html).toMatch(/<textarea rows="5" id="f-notes"/);
    expect(html).toContain('<button type="submit">Send</button>');
  });

  test('a browser post with refused fields gets the page again with each problem marked and the values kept', async () => {
    const res = await formPost(`/forms/${signup.webhook.id}`, { name: 'Ada <3', seats: 'many', plan: 'gold' });
    expect(res.status).toBe(400);
    const html: string = res.body;
    expect(html).toContain('Please correct the 3 fields marked below.');
    expect(html).toContain('Seats: must be a number');
    expect(html).toContain('Plan: must be one of: free, pro');
    expect(html).toContain('I accept the terms: must be ticked');
    expect(html).toContain('value="Ada &lt;3"');
    expect(html).toMatch(/id="f-seats" name="seats" aria-invalid="true"/);
    expect(await api.get(`/api/v1/automations/${signup.id}/runs`).then((r) => r.body.items)).toHaveLength(0);
  });

  test('a valid browser post shows the thank-you message and starts a run with typed values; every field is a variable', async () => {
    const res = await formPost(`/forms/${signup.webhook.id}`, {
      name: 'Ada',
      seats: '3',
      plan: 'pro',
      start: '2026-12-01',
      terms: 'on',
      notes: '',
    });
    expect(res.status).toBe(200);
    expect(res.body).toContain('Thanks, we will be in touch.');
    const [run] = await settledRuns(api, signup.id);
    expect(run.status).toBe('completed');
    expect(run.trigger.type).toBe('form');
    expect(run.trigger.variables).toEqual({ name: 'Ada', seats: 3, plan: 'pro', start: '2026-12-01', terms: true, notes: '' });
    expect(run.steps[0].output.text).toBe('Ada wants pro for 3');
  });

  test('JSON posts get {ok, requestId} or the error envelope listing every refused field', async () => {
    const path = `/forms/${signup.webhook.id}`;
    const bad = await call(server.url, 'POST', path, { body: { name: '', plan: 'pro', terms: true, start: '2026-02-30' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
    expect(bad.body.error.details.problems).toEqual([
      { field: 'name', reason: 'required', message: 'Your <name>: is required' },
      { field: 'start', reason: 'invalid_format', message: 'Start date: must be a date (YYYY-MM-DD)' },
    ]);
    expect(bad.body.error.details).toMatchObject({ field: 'name', reason: 'required' });
    const ok = await call(server.url, 'POST', path, { body: { name: 'Bob', plan: 'free', terms: true, extra: 'ignored' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true, requestId: expect.any(String) });
    const runs = await settledRuns(api, signup.id, 2);
    expect(runs[1].trigger.variables).toEqual({ name: 'Bob', seats: null, plan: 'free', start: null, terms: true, notes: '' });
    expect(runs[1].steps[0].output.text).toBe('Bob wants free for 1');
    // The webhook URL of a form automation checks the same fields.
    const viaWebhook = await call(server.url, 'POST', new URL(signup.webhook.url).pathname, { body: { plan: 'free' } });
    expect(viaWebhook.status).toBe(400);
    expect(viaWebhook.body.error.details.problems.map((p: any) => p.field)).toEqual(['name', 'terms']);
  });

  test('a redirect, a required token, a disabled form and URLs of other automations', async () => {
    const guarded = await createAutomation(api, server.workspaceId, {
      name: 'Private form',
      trigger: {
        type: 'form',
        title: 'Feedback',
        fields: [{ name: 'text', label: 'Feedback', type: 'text', required: true }],
        redirectUrl: 'https://example.com/thanks',
        requireToken: true,
      },
      actions: [{ id: 'make', type: 'task.create', projectId, text: 'Feedback: {{ trigger.text }}' }],
    });
    const token: string = guarded.webhook.token;
    expect(token).toEqual(expect.any(String));
    const path = `/forms/${guarded.webhook.id}`;
    const without = await call(server.url, 'GET', path);
    expect(without.status).toBe(401);
    expect(without.body).toContain('needs the full link');
    const page = await call(server.url, 'GET', `${path}?token=${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/form-action 'self' https:\/\/example\.com/);
    expect(page.body).toContain(`<input type="hidden" name="token" value="${token}">`);
    expect((await formPost(path, { text: 'hi' })).status).toBe(401);
    const sent = await formPost(path, { text: 'Great app', token });
    expect(sent.status).toBe(303);
    expect(sent.headers.location).toBe('https://example.com/thanks');
    const bearer = await call(server.url, 'POST', path, { body: { text: 'Via API' }, headers: { authorization: `Bearer ${token}` } });
    expect(bearer.status).toBe(200);
    const runs = await settledRuns(api, guarded.id, 2);
    expect(runs.map((r) => r.steps[0].output.text)).toEqual(['Feedback: Great app', 'Feedback: Via API']);

    expect((await api.post(`/api/v1/automations/${guarded.id}/disable`)).status).toBe(200);
    const closed = await call(server.url, 'GET', `${path}?token=${encodeURIComponent(token)}`);
    expect(closed.status).toBe(409);
    expect(closed.body).toContain('not accepting responses');

    const hook = await createAutomation(api, server.workspaceId, { name: 'Plain hook', trigger: { type: 'webhook' }, actions: [] });
    expect(hook.webhook.formUrl).toBeUndefined();
    expect((await call(server.url, 'GET', `/forms/${hook.webhook.id}`)).status).toBe(404);
    expect((await formPost(`/forms/${hook.webhook.id}`, { a: '1' })).status).toBe(404);
    expect((await call(server.url, 'POST', `/forms/${hook.webhook.id}`, { body: { a: 1 } })).body.code).toBe('NOT_FOUND');
    expect((await call(server.url, 'GET', '/forms/unknown-form')).status).toBe(404);
  });

  test('fields are checked when saving: options only on choice fields, unique names, a usable redirect', async () => {
    const save = (trigger: Record<string, unknown>) =>
      api.post('/api/v1/automations', {
        workspaceId: server.workspaceId,
        name: 'F',
        trigger: { type: 'form', title: 'F', ...trigger },
        actions: [],
      });
    const noOptions = await save({ fields: [{ name: 'p', label: 'P', type: 'choice' }] });
    expect(noOptions.body.error.details).toEqual({ field: 'trigger.fields[0].options', reason: 'required' });
    const twice = await save({
      fields: [
        { name: 'a', label: 'A', type: 'text' },
        { name: 'a', label: 'B', type: 'number' },
      ],
    });
    expect(twice.body.error.details).toEqual({ field: 'trigger.fields[1].name', reason: 'duplicate' });
    const stray = await save({ fields: [{ name: 'a', label: 'A', type: 'number', options: ['x'] }] });
    expect(stray.body.error.details).toEqual({ field: 'trigger.fields[0].options', reason: 'unknown_field' });
    const kind = await save({ fields: [{ name: 'a', label: 'A', type: 'file' }] });
    expect(kind.body.error.details).toEqual({ field: 'trigger.fields[0].type', reason: 'invalid_value' });
    const none = await save({ fields: [] });
    expect(none.body.error.details).toEqual({ field: 'trigger.fields', reason: 'too_few' });
    const redirect = await save({ fields: [{ name: 'a', label: 'A', type: 'text' }], redirectUrl: 'javascript:alert(1)' });
    expect(redirect.body.error.details).toEqual({ field: 'trigger.redirectUrl', reason: 'invalid_format' });
    for (const redirectUrl of [
      'https://example.com/a\r\nSet-Cookie: sid=1',
      'https://example.com/\nx',
      'https://example.com/a b',
      'https://example.com/\u0000',
      'ftp://example.com/x',
    ]) {
      const bad = await save({ fields: [{ name: 'a', label: 'A', type: 'text' }], redirectUrl });
      expect([redirectUrl, bad.status, bad.body.error?.details]).toEqual([
        redirectUrl,
        400,
        { field: 'trigger.redirectUrl', reason: 'invalid_format' },
      ]);
      if (redirectUrl.startsWith('https:'))
        expect(bad.body.error.message).toMatch(/absolute http\(s\) URL without spaces, line breaks or other control characters/);
    }
  });

  test('a stored redirectUrl that is not usable (saved before the check) never makes a submission 500: the thank-you page is shown', async () => {
    const form = await createAutomation(api, server.workspaceId, {
      name: 'Old form',
      trigger: {
        type: 'form',
        title: 'Old',
        fields: [{ name: 'text', label: 'Text', type: 'text' }],
        redirectUrl: 'https://example.com/thanks',
        thankYou: 'Got it.',
      },
      actions: [],
    });
    const path = `/forms/${form.webhook.id}`;
    const nonAscii = 'https://例え.jp/€';
    for (const stored of ['https://example.com/a\r\nSet-Cookie: sid=1', 'not a url', 'javascript:alert(1)', nonAscii]) {
      const definition = JSON.parse((await dbOf(server).value<string>('SELECT definition_json FROM automations WHERE id = ?', form.id))!);
      definition.trigger.redirectUrl = stored;
      await dbOf(server).run('UPDATE automations SET definition_json = ? WHERE id = ?', JSON.stringify(definition), form.id);
      const page = await call(server.url, 'GET', path);
      expect([stored, page.status]).toEqual([stored, 200]);
      const sent = await formPost(path, { text: 'hi' });
      if (stored === nonAscii) {
        expect(sent.status).toBe(303);
        expect(sent.headers.location).toBe('https://xn--r8jz45g.jp/%E2%82%AC');
      } else {
        expect([stored, sent.status, sent.headers['set-cookie']]).toEqual([stored, 200, undefined]);
        expect(sent.body).toContain('Got it.');
      }
    }
  });

  test('malformed posts get a 4xx: the error envelope for JSON, a page for browsers; never a 5xx', async () => {
    const path = `/forms/${signup.webhook.id}`;
    const cases: [string | undefined, string][] = [
      ['application/json', '{"name":'],
      ['application/json', '[1,2]'],
      ['application/json', 'null'],
      ['application/json', '['.repeat(5000) + ']'.repeat(5000)],
      [
        'application/json',
        JSON.stringify({ name: { a: 1 }, seats: [1], plan: 7, start: 20260101, terms: 'maybe', notes: 'x'.repeat(10001) }),
      ],
      ['application/x-www-form-urlencoded', 'name=%E0%A4%A&plan=pro&plan=free&terms=on&seats=1e400'],
      ['multipart/form-data; boundary=zz', '--zz\r\nContent-Disposition: form-data; name="name"\r\n\r\nx'],
      [undefined, ''],
    ];
    for (const [type, body] of cases) {
      const res = await call(server.url, 'POST', path, { rawBody: body, headers: type ? { 'content-type': type } : {} });
      expect([type, body.slice(0, 40), res.status]).toEqual([type, body.slice(0, 40), 400]);
      if (type === 'application/json') expect(res.body.ok).toBe(false);
      else expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
    const json = await call(server.url, 'POST', path, { body: { name: { a: 1 }, plan: 7, terms: 'maybe', notes: 'x'.repeat(10001) } });
    expect(json.body.error.details.problems.map((p: any) => [p.field, p.reason])).toEqual([
      ['name', 'invalid_type'],
      ['plan', 'invalid_value'],
      ['terms', 'invalid_type'],
      ['notes', 'too_long'],
    ]);
  });

  test("a submission the trigger's filter refuses stores no run: JSON gets {filtered: true}, a browser the thank-you page", async () => {
    const pro = await createAutomation(api, server.workspaceId, {
      name: 'Pro signups only',
      trigger: {
        type: 'form',
        title: 'Pro sign up',
        fields: [{ name: 'plan', label: 'Plan', type: 'choice', options: ['free', 'pro'], required: true }],
        thankYou: 'Thanks for signing up.',
        filter: { anyOf: [{ allOf: [{ left: '{{ trigger.plan }}', operator: 'equals', right: 'pro' }] }] },
      },
      actions: [{ id: 'out', type: 'set', values: { plan: '{{ trigger.plan }}' } }],
    });
    const path = pathOf(pro.webhook.formUrl);
    const json = await call(server.url, 'POST', path, { body: { plan: 'free' } });
    expect(json.status).toBe(200);
    expect(json.body).toEqual({ ok: true, requestId: expect.any(String), filtered: true });
    const page = await formPost(path, { plan: 'free' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Thanks for signing up.');
    const passing = await call(server.url, 'POST', path, { body: { plan: 'pro' } });
    expect(passing.body).toEqual({ ok: true, requestId: expect.any(String) });
    const [run] = await settledRuns(api, pro.id, 1);
    expect(run.steps[0].output).toEqual({ plan: 'pro' });
    expect(await runsOf(api, pro.id)).toHaveLength(1);
  });
});
