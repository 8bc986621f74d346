import { request } from 'undici';
import type { BrowserContext, Page } from 'playwright-core';
import { addUser, call, startServer } from '../helpers/server';
import { newProject } from '../helpers/fixtures-tasks';
import { browserAvailable, serverAndBrowser, withScreenshot } from './browser';

const run = browserAvailable() ? describe : describe.skip;

/**
 * Presence in a real Chromium (docs "Web app", "Presence"): two people with the same project open
 * each see the other's avatar in the project header, never their own; a third party's arrivals
 * beyond five are summed up as "+N"; when one moves to another screen or closes the page, their
 * avatar leaves the other's header without a reload. No console error on the way.
 */
run('web app: presence avatars', () => {
  const suite = serverAndBrowser(() => startServer());

  test('each sees the other; more than five others show as +N; leaving the page or closing it leaves the header', async () => {
    const { server, browser } = suite;
    const projectId = await newProject(server, 'Team board');
    const anaToken = addUser(server, 'ana', { workspaceId: server.workspaceId, role: 'Viewer' });
    const rename = (token: string, displayName: string) => call(server.url, 'PATCH', '/api/v1/me', { token, body: { displayName } });
    expect((await rename(server.token, 'Olga Owner')).status).toBe(200);
    expect((await rename(anaToken, 'Ana Lima')).status).toBe(200);

    const errors: string[] = [];
    const open = async (token: string): Promise<{ context: BrowserContext; page: Page }> => {
      const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${token}` } });
      context.setDefaultTimeout(5000);
      const page = await context.newPage();
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${server.url}/projects/${projectId}`);
      await page.getByRole('heading', { name: 'Team board' }).waitFor();
      return { context, page };
    };
    const others = (page: Page) => page.getByRole('list', { name: 'Also here' });

    const owner = await open(server.token);
    const ana = await open(anaToken);
    await withScreenshot(owner.page, 'presence-avatars', async () => {
      await others(owner.page).getByRole('img', { name: 'Ana Lima' }).waitFor();
      await others(ana.page).getByRole('img', { name: 'Olga Owner' }).waitFor();
      // Nobody sees themselves; the tooltip names the person with their handle.
      expect(await others(owner.page).getByRole('img').count()).toBe(1);
      expect(await others(ana.page).getByRole('img').count()).toBe(1);
      expect(await others(owner.page).getByRole('listitem').getAttribute('title')).toBe('Ana Lima (@ana)');

      // Six more people open the project (scripts holding a live stream): five avatars, then "+2".
      const extra = await Promise.all(
        ['bo', 'cy', 'di', 'ed', 'fay', 'gus'].map(async (handle) => {
          const token = addUser(server, handle, { workspaceId: server.workspaceId, role: 'Viewer' });
          const res = await request(`${server.url}/api/v1/live?projectId=${projectId}`, { headers: { authorization: `Bearer ${token}` } });
          expect(res.statusCode).toBe(200);
          res.body.on('error', () => undefined);
          return res;
        }),
      );
      await others(owner.page)
        .getByRole('img', { name: /^2 more: / })
        .waitFor();
      expect(await others(owner.page).getByRole('img').count()).toBe(6);
      await others(owner.page).getByRole('img', { name: 'Ana Lima' }).waitFor();
      for (const res of extra) res.body.destroy();
      await others(owner.page).getByRole('img', { name: /more/ }).waitFor({ state: 'detached' });

      // Ana moves to another screen in the app, then back: she leaves the project and comes back.
      await ana.page.getByRole('link', { name: 'Automations' }).click();
      await others(owner.page).waitFor({ state: 'detached' });
      await ana.page.goBack();
      await others(owner.page).getByRole('img', { name: 'Ana Lima' }).waitFor();
      await others(ana.page).getByRole('img', { name: 'Olga Owner' }).waitFor();

      // Ana closes her page: her avatar leaves the owner's header, live.
      await ana.page.close();
      await others(owner.page).waitFor({ state: 'detached' });
      await owner.page.getByRole('heading', { name: 'Team board' }).waitFor();
    });
    await ana.context.close();
    await owner.context.close();
    expect(errors).toEqual([]);
  });
});
