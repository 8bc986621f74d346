import { addUser, call, client, startServer, type TestServer } from '../helpers/server';
import { dbOf } from '../helpers/db';
import { waitFor } from '../helpers/wait';
import { addTasks, newProject } from '../helpers/fixtures-tasks';
import { AUTOMATION_ENV, createAutomation, runWithStatus } from '../automations/helpers';
import { startSmtp, linkIn, type TestSmtp } from './smtp';

/**
 * The mails people expect (docs/email.md), read from a real SMTP server on loopback: an invitation
 * whose link joins a second account; an approval request whose link opens the decision page (a GET
 * decides nothing) where the approver decides; a failure alert to the automation's Owner; assignment
 * and mention notifications that follow each person's choice (immediate, digest, off) and carry a
 * working one-click unsubscribe link.
 */
describe('mails people expect', () => {
  let smtp: TestSmtp;
  let server: TestServer;
  let ninaToken: string;
  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startServer({
      env: { ...AUTOMATION_ENV, TASKSPACE_SMTP_URL: smtp.url, TASKSPACE_MAIL_POLL_MS: '50', TASKSPACE_MAIL_DIGEST_SECONDS: '1' },
    });
    await dbOf(server).run("UPDATE users SET email = 'owner@example.test' WHERE handle = 'owner'");
    ninaToken = addUser(server, 'nina');
    await dbOf(server).run("UPDATE users SET email = 'nina@example.test' WHERE handle = 'nina'");
  });
  afterAll(async () => {
    await server.close();
    await smtp.stop();
  });

  /** The next mail to `address` whose subject matches, after the `seen` ones. */
  const mailTo = (address: string, subject: RegExp) =>
    waitFor(() => smtp.to(address).find((m) => subject.test(m.subject ?? '')), `a mail to ${address} about ${subject}`);

  test('an invitation mail: its link joins a second account to the workspace', async () => {
    const owner = client(server, server.token);
    const created = await owner.post(`/api/v1/workspaces/${server.workspaceId}/invitations`, {
      email: 'nina@example.test',
      role: 'Participant',
    });
    expect(created.status).toBe(200);
    expect(created.body.item.mailed).toBe(true);
    const mail = await mailTo('nina@example.test', /invited you/);
    const link = linkIn(mail, `${server.url}/invite?token=`);
    expect(link).toBe(created.body.item.url);
    // The link is the web app's invitation page; accepting joins.
    const page = await call(server.url, 'GET', new URL(link).pathname + new URL(link).search, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const token = new URL(link).searchParams.get('token')!;
    const accepted = await client(server, ninaToken).post('/api/v1/invitations/accept', { token });
    expect(accepted.status).toBe(200);
    expect(accepted.body.item).toMatchObject({ workspaceId: server.workspaceId, role: 'Participant' });
    const members = (await owner.get(`/api/v1/workspaces/${server.workspaceId}/members`)).body.items.map(
      (m: { handle: string }) => m.handle,
    );
    expect(members).toContain('nina');
  });

  test('assignment and mention mails follow the choice in My account; digest gathers; unsubscribe turns a kind off', async () => {
    const nina = client(server, ninaToken);
    const owner = client(server, server.token);
    const projectId = await newProject(server, 'Launch');
    const [t1, t2, t3] = await addTasks(server, projectId, ['Write the notes', 'Book the room', 'Order cake']);
    expect((await nina.get('/api/v1/me/mail-preferences')).body.item).toEqual({
      assignment: 'immediate',
      mention: 'immediate',
      approval: 'immediate',
      failure: 'immediate',
    });

    // Immediate: one mail, with a one-click unsubscribe link.
    await owner.put(`/api/v1/projects/${projectId}/tasks/${t1!.id}/assignees`, { handles: ['nina'] });
    const assigned = await mailTo('nina@example.test', /assigned you “Write the notes”/);
    expect(assigned.text).toContain(`${server.url}/projects/${projectId}`);
    const header = (name: string) =>
      assigned.headerLines
        .find((h) => h.key === name)
        ?.line.replace(/^[^:]+:\s*/, '')
        .replace(/\r?\n\s+/g, '');
    const unsubscribe = header('list-unsubscribe')!.replace(/^<|>$/g, '');
    expect(unsubscribe).toMatch(new RegExp(`^${server.url}/api/v1/mail/unsubscribe\\?token=`));
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');

    // Off: no assignment mail; the mention that follows arrives (so the off one had its chance).
    expect((await nina.put('/api/v1/me/mail-preferences', { assignment: 'off' })).body.item.assignment).toBe('off');
    await owner.put(`/api/v1/projects/${projectId}/tasks/${t2!.id}/assignees`, { handles: ['nina'] });
    await owner.post(`/api/v1/projects/${projectId}/tasks/${t2!.id}/comments`, { text: 'Can you check this, @nina?' });
    await mailTo('nina@example.test', /mentioned you on “Book the room”/);
    expect(smtp.to('nina@example.test').filter((m) => /Book the room/.test(m.subject ?? '') && /assigned/.test(m.subject ?? ''))).toEqual(
      [],
    );

    // Digest: held, then one mail listing it.
    await nina.put('/api/v1/me/mail-preferences', { assignment: 'digest' });
    await owner.put(`/api/v1/projects/${projectId}/tasks/${t3!.id}/assignees`, { handles: ['nina'] });
    const digest = await mailTo('nina@example.test', /^Taskspace: 1 notification$/);
    expect(digest.text).toContain('assigned you “Order cake”');
    expect(smtp.to('nina@example.test').filter((m) => /assigned you “Order cake”/.test(m.subject ?? ''))).toEqual([]);

    // The unsubscribe link: a GET only shows a button; the one-click POST turns mentions... here assignments off.
    const shown = await call(server.url, 'GET', new URL(unsubscribe).pathname + new URL(unsubscribe).search);
    expect(shown.status).toBe(200);
    expect((await nina.get('/api/v1/me/mail-preferences')).body.item.assignment).toBe('digest');
    const posted = await call(server.url, 'POST', new URL(unsubscribe).pathname + new URL(unsubscribe).search, {
      rawBody: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(posted.status).toBe(200);
    expect((await nina.get('/api/v1/me/mail-preferences')).body.item.assignment).toBe('off');
    const forged = await call(server.url, 'POST', new URL(unsubscribe).pathname + new URL(unsubscribe).search.replace(/.$/, '0'));
    expect(forged.status).toBe(400);
  });

  test('an approval mail opens the decision page, where the approver decides; a failure alert reaches the Owner', async () => {
    const owner = client(server, server.token);
    const gate = await createAutomation(owner, server.workspaceId, {
      name: 'Release gate',
      trigger: { type: 'webhook' },
      actions: [{ id: 'ask', type: 'approval', message: 'Release {{ trigger.v }}?', approvers: ['nina'] }],
    });
    const started = (await owner.post(`/api/v1/automations/${gate.id}/test`, { payload: { v: '3.1' } })).body.item;
    await runWithStatus(owner, gate.id, started.id, 'waiting');
    const mail = await mailTo('nina@example.test', /Approval needed: Release gate/);
    expect(mail.text).toContain('Release 3.1?');
    const link = linkIn(mail, `${server.url}/decide?token=`);
    // Opening the link shows the page and decides nothing.
    const url = new URL(link);
    expect((await call(server.url, 'GET', url.pathname + url.search, { headers: { accept: 'text/html' } })).status).toBe(200);
    await runWithStatus(owner, gate.id, started.id, 'waiting');
    const token = url.searchParams.get('token')!;
    const nina = client(server, ninaToken);
    expect((await nina.post('/api/v1/approvals/inspect', { token })).status).toBe(200);
    const decided = await nina.post('/api/v1/approvals/decide', { token, decision: 'approve' });
    expect(decided.body.item.status).toBe('completed');

    const failing = await createAutomation(owner, server.workspaceId, {
      name: 'Broken sync',
      trigger: { type: 'webhook' },
      actions: [{ id: 'oops', type: 'task.create', projectId: "{{ 'no-such-project' }}", text: 'x' }],
    });
    expect((await call(server.url, 'POST', new URL(failing.webhook.url).pathname, { body: { n: 1 } })).status).toBe(200);
    const alert = await mailTo('owner@example.test', /Automation failed: Broken sync/);
    expect(alert.text).toContain('NOT_FOUND');
    expect(alert.text).toContain(`${server.url}/automations/${failing.id}/runs/`);
  });
});
