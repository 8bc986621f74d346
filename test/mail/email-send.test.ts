import { request, FormData } from 'undici';
import { call, client, startServer, type TestServer } from '../helpers/server';
import { AUTOMATION_ENV, createAutomation, endedRuns, runWithStatus, waitFor } from '../automations/helpers';
import { dbOf } from '../helpers/db';
import { startSmtp, type TestSmtp } from './smtp';

/**
 * The `email.send` action (docs/email.md "Sending mail from an automation"): an automation mails
 * people with templates rendered and a workspace media file attached, through the instance's SMTP
 * server (a real one on loopback); without SMTP the step fails with `MAIL_NOT_CONFIGURED`.
 */

/** Uploads `bytes` as a media item of the workspace's home folder; returns its id. */
async function upload(server: TestServer, name: string, bytes: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'application/pdf' }), name);
  const res = await request(`${server.url}/api/v1/folders/${server.workspaceId}/medias`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}` },
    body: form,
  });
  const body = JSON.parse(await res.body.text());
  if (res.statusCode !== 200) throw new Error(JSON.stringify(body));
  return body.item.id as string;
}

const DEFINITION = (mediaId: string) => ({
  name: 'Mail the invoice',
  trigger: { type: 'webhook' },
  actions: [
    {
      id: 'mail',
      type: 'email.send',
      to: '{{ trigger.email }}, Ben <ben@example.test>',
      cc: 'books@example.test',
      subject: 'Invoice {{ trigger.number }}',
      text: 'Hello {{ trigger.name }},\nyour invoice {{ trigger.number }} is attached.',
      html: '<p>Hello <b>{{ trigger.name | escape }}</b></p>',
      attachments: [{ mediaId, filename: 'invoice-{{ trigger.number }}.pdf' }],
    },
  ],
});

describe('email.send', () => {
  let smtp: TestSmtp;
  let server: TestServer;
  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startServer({ env: { ...AUTOMATION_ENV, TASKSPACE_SMTP_URL: smtp.url, TASKSPACE_MAIL_POLL_MS: '50' } });
  });
  afterAll(async () => {
    await server.close();
    await smtp.stop();
  });

  test('an automation mails to, cc, subject, text and HTML from templates, with a media file attached', async () => {
    const bytes = Buffer.from('%PDF-1.4 the invoice bytes \u0000\u0001\u0002');
    const mediaId = await upload(server, 'scan.pdf', bytes);
    const api = client(server, server.token);
    const automation = await createAutomation(api, server.workspaceId, DEFINITION(mediaId));
    const res = await call(server.url, 'POST', new URL(automation.webhook.url).pathname, {
      body: { email: 'ann@example.test', name: 'Ann <&>', number: 'A-17' },
    });
    expect(res.status).toBe(200);
    const [run] = await endedRuns(api, automation.id);
    expect(run.status).toBe('completed');
    const [mail] = await smtp.waitForMails(1);
    expect(mail!.subject).toBe('Invoice A-17');
    expect(mail!.to).toMatchObject({ value: [{ address: 'ann@example.test' }, { name: 'Ben', address: 'ben@example.test' }] });
    expect(mail!.cc).toMatchObject({ value: [{ address: 'books@example.test' }] });
    expect(mail!.text).toContain('your invoice A-17 is attached.');
    expect(mail!.html).toContain('<b>Ann &lt;&amp;&gt;</b>');
    expect(mail!.attachments).toHaveLength(1);
    expect(mail!.attachments[0]!.filename).toBe('invoice-A-17.pdf');
    expect(mail!.attachments[0]!.content.equals(bytes)).toBe(true);
    const detail = (await api.get(`/api/v1/automations/${automation.id}/runs/${run.id}`)).body.item;
    expect(detail.steps[0].output).toMatchObject({ messageId: mail!.messageId, subject: 'Invoice A-17', attachments: 1 });
  });

  test('a bad address or an unknown attachment fails the step for good', async () => {
    const api = client(server, server.token);
    const automation = await createAutomation(api, server.workspaceId, DEFINITION('no-such-media'));
    const bad = (
      await api.post(`/api/v1/automations/${automation.id}/test`, { payload: { email: 'not an address', name: 'A', number: '1' } })
    ).body.item;
    const failed = await runWithStatus(api, automation.id, bad.id, 'failed');
    expect(failed.error).toMatchObject({ code: 'INVALID_INPUT', transient: false });
    const missing = (
      await api.post(`/api/v1/automations/${automation.id}/test`, { payload: { email: 'a@example.test', name: 'A', number: '2' } })
    ).body.item;
    expect((await runWithStatus(api, automation.id, missing.id, 'failed')).error).toMatchObject({ code: 'NOT_FOUND', transient: false });
  });
});

describe('email.send without SMTP', () => {
  test('the step fails with MAIL_NOT_CONFIGURED', async () => {
    const server = await startServer({ env: AUTOMATION_ENV });
    try {
      const api = client(server, server.token);
      const automation = await createAutomation(api, server.workspaceId, DEFINITION('x'));
      const run = (
        await api.post(`/api/v1/automations/${automation.id}/test`, { payload: { email: 'a@example.test', name: 'A', number: '3' } })
      ).body.item;
      expect((await runWithStatus(api, automation.id, run.id, 'failed')).error).toMatchObject({
        code: 'MAIL_NOT_CONFIGURED',
        transient: false,
      });
    } finally {
      await server.close();
    }
  });
});

describe('email.send through a workspace SMTP connection kept as a secret', () => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp({ auth: { user: 'ws-mailer', pass: 'workspace smtp password' } });
  });
  afterAll(async () => {
    await smtp.stop();
  });

  const definition = {
    name: 'Mail through our server',
    trigger: { type: 'webhook' },
    actions: [{ id: 'mail', type: 'email.send', to: 'zoe@example.test', subject: 'Ours', text: 'Hi', smtpUrl: '{{ secrets.SMTP_URL }}' }],
  };

  test("with no instance SMTP the mail goes through the secret's server; the run never records the URL", async () => {
    const server = await startServer({ env: AUTOMATION_ENV });
    try {
      const api = client(server, server.token);
      expect((await api.put(`/api/v1/workspaces/${server.workspaceId}/secrets/SMTP_URL`, { value: smtp.url })).status).toBe(200);
      const automation = await createAutomation(api, server.workspaceId, definition);
      const run = (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: {} })).body.item;
      const done = await runWithStatus(api, automation.id, run.id, 'completed');
      const mail = await waitFor(() => smtp.to('zoe@example.test')[0], 'the mail through the workspace server');
      expect(mail.subject).toBe('Ours');
      expect(JSON.stringify(done)).not.toContain('workspace smtp password');
      expect(JSON.stringify(done)).not.toContain(encodeURIComponent('workspace smtp password'));
    } finally {
      await server.close();
    }
  });

  test('a workspace server on a loopback address is refused by the SSRF guard: the mail is given up', async () => {
    const server = await startServer();
    try {
      const api = client(server, server.token);
      await api.put(`/api/v1/workspaces/${server.workspaceId}/secrets/SMTP_URL`, { value: smtp.url });
      const automation = await createAutomation(api, server.workspaceId, definition);
      const before = smtp.mails.length;
      const run = (await api.post(`/api/v1/automations/${automation.id}/test`, { payload: {} })).body.item;
      await runWithStatus(api, automation.id, run.id, 'completed');
      const db = dbOf(server);
      await waitFor(async () => (await db.value("SELECT status FROM mail_outbox WHERE kind = 'automation'")) === 'failed', 'given up');
      expect(await db.value("SELECT last_error FROM mail_outbox WHERE kind = 'automation'")).toMatch(/does not connect to/);
      expect(smtp.mails.length).toBe(before);
    } finally {
      await server.close();
    }
  });
});
