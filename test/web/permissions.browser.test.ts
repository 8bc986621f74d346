import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { FormData, request } from 'undici';
import { addUser, client, startServer } from '../helpers/server';
import { addTasks, newProject } from '../helpers/fixtures-tasks';
import { AUTOMATION_ENV, createAutomation, runWithStatus } from '../automations/helpers';
import { browserAvailable, serverAndBrowser, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;

const ROLES = ['Viewer', 'Participant', 'Collaborator', 'Owner'] as const;
type Role = (typeof ROLES)[number];
/** Who opens the pages: a member of each role, and @nina (a Participant the approval step names). */
type Who = Role | 'nina';

/**
 * Permissions shown, not discovered (docs/web-app.md "Roles on every screen"): the key screens
 * opened in a real Chromium by a member of each role, against the real server. A control the
 * person may not use is absent (with the reason shown) or disabled with its reason; nobody is
 * offered something that then fails. No page logs a console error: in particular an agent page
 * with public access off asks for no public page (no 404).
 */
run('web app: what each role is shown', () => {
  // A private copy of the built app: another process rebuilding web/dist would remove the hashed files this server's index names.
  const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskspace-web-'));
  fs.cpSync(path.resolve(__dirname, '../../web/dist'), webDir, { recursive: true });
  const suite = serverAndBrowser(() => startServer({ env: { ...AUTOMATION_ENV, TASKSPACE_WEB_DIR: webDir } }));
  const pages = {} as Record<Who, { context: BrowserContext; page: Page; errors: string[] }>;
  const ids = {} as { project: string; agent: string; media: string; named: string; namedRun: string; open: string; openRun: string };

  beforeAll(async () => {
    const { server, browser } = suite;
    const owner = client(server, server.token);
    const tokens: Record<Who, string> = {
      Owner: server.token,
      Collaborator: addUser(server, 'cole', { workspaceId: server.workspaceId, role: 'Collaborator' }),
      Participant: addUser(server, 'pat', { workspaceId: server.workspaceId, role: 'Participant' }),
      Viewer: addUser(server, 'vera', { workspaceId: server.workspaceId, role: 'Viewer' }),
      nina: addUser(server, 'nina', { workspaceId: server.workspaceId, role: 'Participant' }),
    };
    ids.project = await newProject(server, 'Roadmap');
    await addTasks(server, ids.project, ['Plan the release']);
    ids.agent = (
      await owner.post(`/api/v1/folders/${server.workspaceId}/agents`, {
        name: 'Helper',
        data: { type: 'agent', data: { commands: [{ id: 'ask', name: 'Ask', prompt: 'Answer: {{ input }}' }] } },
      })
    ).body.item.id;
    const form = new FormData();
    form.append('file', new Blob(['notes'], { type: 'text/plain' }), 'notes.txt');
    const uploaded = await request(`${server.url}/api/v1/folders/${server.workspaceId}/medias`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}` },
      body: form,
    });
    ids.media = ((await uploaded.body.json()) as { item: { id: string } }).item.id;
    const named = await createAutomation(owner, server.workspaceId, {
      name: 'Ship gate',
      trigger: { type: 'webhook' },
      actions: [{ id: 'ask', type: 'approval', message: 'Ship it?', approvers: ['nina'] }],
    });
    const open = await createAutomation(owner, server.workspaceId, {
      name: 'Open gate',
      trigger: { type: 'webhook' },
      actions: [{ id: 'ask', type: 'approval', message: 'Go ahead?' }],
    });
    ids.named = named.id;
    ids.open = open.id;
    ids.namedRun = (await owner.post(`/api/v1/automations/${named.id}/test`, {})).body.item.id;
    ids.openRun = (await owner.post(`/api/v1/automations/${open.id}/test`, {})).body.item.id;
    await runWithStatus(owner, named.id, ids.namedRun, 'waiting');
    await runWithStatus(owner, open.id, ids.openRun, 'waiting');
    for (const who of [...ROLES, 'nina'] as const) {
      const context = await browser.newContext({
        extraHTTPHeaders: { authorization: `Bearer ${tokens[who]}` },
        viewport: { width: 1280, height: 900 },
      });
      context.setDefaultTimeout(10000);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(`${page.url()}: ${m.text()}`));
      page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
      pages[who] = { context, page, errors };
    }
  }, 60_000);
  afterAll(async () => {
    for (const p of Object.values(pages)) await p.context.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  /** Opens `where` as `who`, waits for `ready`, runs `check`, and expects no console error on the way. */
  async function visit(who: Who, where: string, ready: (page: Page) => Locator, check: (page: Page) => Promise<void>) {
    const { page, errors } = pages[who];
    await withScreenshot(page, `permissions-${who}-${where}`, async () => {
      errors.length = 0;
      await page.goto(`${suite.server.url}${where}`);
      await ready(page).waitFor();
      await check(page);
      // Anything still loading (a query after the first paint) has had its chance to fail.
      await page.waitForLoadState('networkidle');
      expect(errors).toEqual([]);
    });
  }

  const at = (role: Role, least: Role) => ROLES.indexOf(role) >= ROLES.indexOf(least);

  /** A visible reason note with `text`, and the control it explains disabled with the same reason as its title and description. */
  async function disabledWithReason(page: Page, control: Locator, text: string) {
    expect(await control.isDisabled()).toBe(true);
    expect(await control.getAttribute('title')).toContain(text);
    const described = await control.getAttribute('aria-describedby');
    expect(described).toBeTruthy();
    expect(await page.locator(`[id="${described}"]`).textContent()).toContain(text);
    expect(await page.locator(`[id="${described}"]`).isVisible()).toBe(true);
  }

  test('projects: the outline, project actions, new projects', async () => {
    for (const role of ROLES) {
      await visit(
        role,
        `/projects/${ids.project}`,
        (page) => page.getByRole('heading', { name: 'Roadmap' }),
        async (page) => {
          await page.getByPlaceholder('Search tasks').waitFor();
          const actions = page.getByRole('button', { name: 'Project actions' });
          if (at(role, 'Collaborator')) {
            await actions.click();
            await page.getByRole('menu', { name: 'Project actions' }).getByRole('menuitem', { name: 'Copy' }).waitFor();
            await page.keyboard.press('Escape');
            expect(await page.locator('.permission-note').count()).toBe(0);
          } else {
            expect(await actions.count()).toBe(0);
            await page
              .getByText(
                role === 'Viewer'
                  ? 'Editing tasks needs the Participant role; you are a Viewer.'
                  : 'Managing projects needs the Collaborator role; you are a Participant.',
              )
              .waitFor();
          }
          expect(await page.getByRole('button', { name: 'Deleted tasks' }).count()).toBe(at(role, 'Participant') ? 1 : 0);
          expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'New project' }).count()).toBe(
            at(role, 'Collaborator') ? 1 : 0,
          );
        },
      );
      await visit(
        role,
        `/folders/${suite.server.workspaceId}/new-project`,
        (page) => page.getByRole('heading', { name: 'New project' }),
        async (page) => {
          const create = page.getByRole('button', { name: 'Create project' });
          // The role comes with the workspace's folders, which may load after the heading: wait for it.
          if (at(role, 'Collaborator')) await page.getByRole('button', { name: 'Create project', disabled: false }).waitFor();
          else {
            await page.locator(`button[title$="you are a ${role}."]`, { hasText: 'Create project' }).waitFor();
            await disabledWithReason(page, create, `Managing projects needs the Collaborator role; you are a ${role}.`);
          }
        },
      );
    }
  }, 120_000);

  test('agents (public access off: no public page asked for, no 404) and media', async () => {
    for (const role of ROLES) {
      await visit(
        role,
        `/agents/${ids.agent}`,
        (page) => page.getByRole('heading', { name: 'Helper' }),
        async (page) => {
          await page.getByRole('heading', { name: 'Public page' }).waitFor();
          expect(await page.getByLabel('Anyone with the link can use this agent').isChecked()).toBe(false);
          const manage = 'Creating and editing agents needs the Collaborator role';
          expect(await page.getByRole('button', { name: 'Save agent' }).count()).toBe(at(role, 'Collaborator') ? 1 : 0);
          expect(await page.getByRole('button', { name: 'Agent actions' }).count()).toBe(at(role, 'Collaborator') ? 1 : 0);
          expect(await page.getByRole('button', { name: 'Run', exact: true }).count()).toBe(at(role, 'Participant') ? 1 : 0);
          if (!at(role, 'Collaborator')) {
            await page.getByText(`${manage}; you are a ${role}.`).waitFor();
            // The settings are shown read-only, described by that reason.
            expect(await page.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
            expect(await page.getByLabel('Anyone with the link can use this agent').isDisabled()).toBe(true);
          }
          expect(await page.getByText('Running agent commands needs the Participant role; you are a Viewer.').count()).toBe(
            role === 'Viewer' ? 1 : 0,
          );
        },
      );
      await visit(
        role,
        '/agents',
        (page) => page.getByRole('link', { name: 'Helper' }),
        async (page) => {
          expect(await page.getByRole('button', { name: 'Create agent' }).count()).toBe(at(role, 'Collaborator') ? 1 : 0);
          expect(await page.getByText(`Creating and editing agents needs the Collaborator role; you are a ${role}.`).count()).toBe(
            at(role, 'Collaborator') ? 0 : 1,
          );
        },
      );
      await visit(
        role,
        '/media',
        (page) => page.getByRole('cell', { name: 'notes.txt', exact: true }),
        async (page) => {
          expect(await page.getByText('choose files').count()).toBe(at(role, 'Collaborator') ? 1 : 0);
          expect(await page.getByRole('button', { name: 'Delete notes.txt' }).count()).toBe(at(role, 'Collaborator') ? 1 : 0);
          expect(await page.getByText(`Uploading and deleting media needs the Collaborator role; you are a ${role}.`).count()).toBe(
            at(role, 'Collaborator') ? 0 : 1,
          );
        },
      );
    }
  }, 120_000);

  test('automations: the list, one automation, and the builder read-only below Owner', async () => {
    for (const role of ROLES) {
      const reason = `Changing automations needs the Owner role; you are a ${role}.`;
      await visit(
        role,
        '/automations',
        (page) => page.getByRole('link', { name: 'Ship gate' }),
        async (page) => {
          const enabled = page.getByRole('switch', { name: 'Ship gate enabled' });
          expect(await page.getByRole('link', { name: 'New automation' }).count()).toBe(role === 'Owner' ? 1 : 0);
          if (role === 'Owner') expect(await enabled.isEnabled()).toBe(true);
          else await disabledWithReason(page, enabled, reason);
        },
      );
      await visit(
        role,
        `/automations/${ids.named}`,
        (page) => page.getByRole('heading', { name: 'Ship gate' }),
        async (page) => {
          await page.getByRole('button', { name: 'Automation actions' }).click();
          const menu = page.getByRole('menu', { name: 'Automation actions' });
          await menu.getByRole('menuitem', { name: 'Export' }).waitFor();
          expect(await menu.getByRole('menuitem', { name: 'Duplicate' }).count()).toBe(role === 'Owner' ? 1 : 0);
          expect(await menu.getByRole('menuitem', { name: 'Delete automation' }).count()).toBe(role === 'Owner' ? 1 : 0);
          await page.keyboard.press('Escape');
          expect(await page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(role === 'Owner' ? 1 : 0);
          expect(await page.getByText(reason).count()).toBe(role === 'Owner' ? 0 : 1);
        },
      );
      await visit(
        role,
        `/automations/${ids.named}/edit`,
        (page) => page.getByRole('heading', { name: role === 'Owner' ? 'Edit Ship gate' : 'Ship gate' }),
        async (page) => {
          const save = page.getByRole('button', { name: 'Save', exact: true });
          if (role === 'Owner') {
            await save.waitFor();
          } else {
            await page
              .getByRole('note')
              .filter({ hasText: `You can view this automation but not edit it. ${reason}` })
              .waitFor();
            expect(await page.getByLabel('Definition (JSON)').textContent()).toContain('"approvers"');
            expect(await save.count()).toBe(0);
          }
        },
      );
    }
  }, 180_000);

  test('approvals: Approve and Reject only for the approvers a step names; the others read who decides', async () => {
    const named = `/automations/${ids.named}/runs/${ids.namedRun}`;
    for (const who of [...ROLES, 'nina'] as const) {
      await visit(
        who,
        named,
        (page) => page.getByRole('heading', { name: /Waiting for approval/ }),
        async (page) => {
          if (who === 'nina') {
            await page.getByRole('button', { name: 'Approve' }).waitFor();
            expect(await page.getByRole('button', { name: 'Reject' }).count()).toBe(1);
          } else {
            await page.getByText('Only @nina can decide this approval.').waitFor();
            expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
            expect(await page.getByRole('button', { name: 'Reject' }).count()).toBe(0);
          }
        },
      );
    }
    for (const role of ROLES) {
      await visit(
        role,
        `/automations/${ids.open}/runs/${ids.openRun}`,
        (page) => page.getByRole('heading', { name: /Waiting for approval/ }),
        async (page) => {
          if (role === 'Viewer') {
            await page.getByText('Only members with the Participant role or above can decide this approval.').waitFor();
            expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
          } else await page.getByRole('button', { name: 'Approve' }).waitFor();
          expect(await page.getByRole('button', { name: 'Cancel run' }).count()).toBe(role === 'Owner' ? 1 : 0);
        },
      );
    }
    // The inbox says the same; @nina decides, and the run goes on.
    await visit(
      'Owner',
      '/approvals',
      (page) => page.getByRole('heading', { name: 'Ship it?' }),
      async (page) => {
        const card = page.getByRole('listitem').filter({ hasText: 'Ship it?' });
        await card.getByText('Only @nina can decide this approval.').waitFor();
        expect(await card.getByRole('button', { name: 'Approve' }).count()).toBe(0);
      },
    );
    await visit(
      'nina',
      named,
      (page) => page.getByRole('button', { name: 'Approve' }),
      async (page) => {
        await page.getByRole('button', { name: 'Approve' }).click();
        await page.getByRole('heading', { name: /Run .* completed/ }).waitFor();
      },
    );
  }, 120_000);

  test('settings: members, workspace, secrets, OAuth apps', async () => {
    for (const role of ROLES) {
      const owner = role === 'Owner';
      await visit(
        role,
        '/settings/members',
        (page) => page.getByRole('cell', { name: 'pat @pat' }),
        async (page) => {
          expect(await page.getByRole('heading', { name: 'Invite someone' }).count()).toBe(owner ? 1 : 0);
          expect(await page.getByRole('button', { name: 'Remove @pat' }).count()).toBe(owner ? 1 : 0);
          expect(await page.getByLabel('Role of @pat').count()).toBe(owner ? 1 : 0);
          expect(await page.getByText(`Managing members and invitations needs the Owner role; you are a ${role}.`).count()).toBe(
            owner ? 0 : 1,
          );
        },
      );
      await visit(
        role,
        '/settings/workspace',
        (page) => page.getByRole('heading', { name: 'Your role' }),
        async (page) => {
          const name = page.getByLabel('Workspace name');
          if (owner) expect(await name.isEnabled()).toBe(true);
          else await disabledWithReason(page, name, `Renaming the workspace needs the Owner role; you are a ${role}.`);
        },
      );
      await visit(
        role,
        '/settings/secrets',
        (page) => page.getByRole('heading', { name: 'Secrets' }),
        async (page) => {
          if (owner) await page.getByRole('heading', { name: 'Set a secret' }).waitFor();
          else await page.getByText('Managing secrets needs the Owner role, which you have in none of your workspaces.').waitFor();
        },
      );
      await visit(
        role,
        '/settings/oauth-apps',
        (page) => page.getByRole('heading', { name: 'OAuth apps' }),
        async (page) => {
          if (owner) await page.getByRole('button', { name: 'Register app' }).waitFor();
          else await page.getByText('Registering OAuth apps needs the Owner role, which you have in none of your workspaces.').waitFor();
        },
      );
    }
  }, 120_000);
});
