import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

/** `text` as a literal in a regular expression. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Drives the automation builder's flow view like a person: the kind picker, the flow's cards, the
 * side panel and its fields by their visible labels (never the JSON view).
 */
export class BuilderPage {
  readonly errors: string[] = [];

  constructor(readonly page: Page) {
    // A CSP violation's console error does not say what caused it: record the element too.
    void page.addInitScript({
      content:
        "document.addEventListener('securitypolicyviolation', (e) => console.warn(`CSP violation (${e.violatedDirective}) at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber} on ${e.target && e.target.outerHTML ? e.target.outerHTML.slice(0, 200) : ''}`));",
    });
    page.on('console', (m) => (m.type() === 'error' || m.text().startsWith('CSP violation')) && this.errors.push(m.text()));
    page.on('pageerror', (e) => this.errors.push(String(e)));
  }

  /**
   * The side panel while it shows step `id` (its form, its test, its tools): the "card" the other
   * helpers fill in. Open it first with {@link open} (adding a step opens it).
   */
  card(id: string): Locator {
    return this.page.getByRole('region', { name: `Step ${id}`, exact: true });
  }

  /** The side panel while it shows the trigger. */
  trigger(): Locator {
    return this.page.getByRole('region', { name: 'Trigger', exact: true });
  }

  /** The flow's collapsed card of step `id` (a button: Enter or a click opens its panel). */
  step(id: string): Locator {
    return this.page.getByRole('button', { name: new RegExp(`^Step ${escape(id)}: `) });
  }

  /** The flow's card of the trigger. */
  triggerCard(): Locator {
    return this.page.getByRole('button', { name: /^Trigger: / });
  }

  /**
   * On a phone (700 px or narrower), closes the side panel's sheet so that the flow under it can be
   * used, as a person closes it first; on a wider screen the panel is beside the flow and stays.
   */
  async toFlow(): Promise<void> {
    if ((this.page.viewportSize()?.width ?? 1280) > 700) return;
    const panel = this.page.locator('#step-panel');
    if (await panel.isVisible()) {
      await panel.getByRole('button', { name: /^Close / }).click();
      await panel.waitFor({ state: 'detached' });
    }
  }

  /** Opens step `id` in the side panel with a click on its card and returns the panel. */
  async open(id: string): Promise<Locator> {
    const panel = this.card(id);
    if (!(await panel.isVisible())) {
      await this.toFlow();
      await this.step(id).click();
    }
    await panel.waitFor();
    return panel;
  }

  /** Opens the trigger in the side panel and returns the panel. */
  async openTrigger(): Promise<Locator> {
    const panel = this.trigger();
    if (!(await panel.isVisible())) {
      await this.toFlow();
      await this.triggerCard().click();
    }
    await panel.waitFor();
    return panel;
  }

  /** Chooses `title` in the open kind picker (searching for it first). */
  async pick(title: string): Promise<void> {
    const dialog = this.page.getByRole('dialog');
    await dialog.getByRole('searchbox', { name: 'Search kinds' }).fill(title);
    await dialog
      .getByRole('button', { name: new RegExp(`^${escape(title)}`) })
      .first()
      .click();
    await dialog.waitFor({ state: 'detached' });
  }

  /** Sets the trigger kind (from the trigger's panel). */
  async chooseTrigger(title: string): Promise<void> {
    const panel = await this.openTrigger();
    await panel.getByRole('button', { name: /Choose a trigger|Change trigger/ }).click();
    await this.pick(title);
  }

  /**
   * Adds a step of kind `title` with the "+" named `plus` (e.g. `Add a step to Steps`, `Add a step
   * after make`), renames it to `id` in the side panel it opens in (focused), and returns the panel.
   */
  async add(plus: string, title: string, id: string): Promise<Locator> {
    await this.toFlow();
    await this.page.getByRole('button', { name: plus, exact: true }).first().click();
    await this.pick(title);
    const panel = this.page.locator('#step-panel:focus');
    await panel.waitFor();
    await panel.getByRole('textbox', { name: /^Step id of / }).fill(id);
    return this.card(id);
  }

  /** Fills a text field of a card (a template field, a plain input, a number). */
  async fill(card: Locator, label: string, value: string): Promise<void> {
    await card.getByLabel(label, { exact: true }).first().fill(value);
  }

  /**
   * Replaces the text of a code editor (CodeMirror) as typing does (`fill` would go through
   * `execCommand`, which makes styled spans the CSP refuses).
   */
  async code(editor: Locator, text: string): Promise<void> {
    await editor.focus();
    await this.page.keyboard.press('ControlOrMeta+A');
    await this.page.keyboard.insertText(text);
  }

  /** Chooses a picker's entry by its visible label. */
  async choose(card: Locator, label: string, option: string): Promise<void> {
    await card.getByLabel(label, { exact: true }).first().selectOption({ label: option });
  }
}

/**
 * Clicks "Test step" in a step's panel (and "Run it" when the step has side effects and the builder asks)
 * and waits for the result on the card; returns the result's region.
 */
export async function testStepOn(b: BuilderPage, card: Locator, id: string, opts: { confirm?: boolean } = {}): Promise<Locator> {
  const answer = b.page.waitForResponse((r) => new URL(r.url()).pathname.endsWith(`/steps/${id}/test`));
  await card.getByRole('button', { name: `Test step ${id}`, exact: true }).click();
  if (opts.confirm) {
    const ask = card.getByRole('alertdialog', { name: `Confirm the test of ${id}` });
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Run it' }).click();
  }
  await answer;
  const result = card.getByRole('status', { name: `Test result of ${id}` });
  await result.waitFor();
  return result;
}

/**
 * Opens the data picker of a card's template field `label` and returns the entry for `path`
 * (its button shows the path and its sample value); it is not clicked.
 */
export async function dataEntry(card: Locator, label: string, path: string): Promise<Locator> {
  await card.getByRole('button', { name: `Insert data into ${label}`, exact: true }).click();
  const dialog = card.getByRole('dialog', { name: `Insert data into ${label}` });
  const entry = dialog
    .getByRole('button')
    .filter({ has: card.page().locator(`code:text-is("${path}")`) })
    .first();
  await entry.waitFor();
  return entry;
}

/**
 * A private copy of the built web app (`web/dist`) in a temporary folder, for a suite's server
 * (`TASKSPACE_WEB_DIR`): a rebuild of web/dist by another process while the suite runs would
 * otherwise remove the hashed files the server's index names. `remove` deletes it (afterAll).
 */
export function privateWebDir(): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(join(tmpdir(), 'taskspace-web-'));
  fs.cpSync(resolvePath(__dirname, '../../web/dist'), dir, { recursive: true });
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A browser context signed in with `token` (bearer header), a page in it (1280×900 unless
 * `viewport` says), actions waiting up to 10 s, and a {@link BuilderPage} recording its console errors.
 */
export async function builderSession(
  browser: Browser,
  token: string,
  viewport = { width: 1280, height: 900 },
): Promise<{ context: BrowserContext; page: Page; b: BuilderPage }> {
  const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${token}` }, viewport });
  context.setDefaultTimeout(10000);
  const page = await context.newPage();
  return { context, page, b: new BuilderPage(page) };
}
