import AxeBuilder from '@axe-core/playwright';
import { expect, type FileChooser, type Locator, type Page } from '@playwright/test';

/** What the browser tests of the toolkit's pages do again and again, said once. */

/** A drawer or modal by its title. */
export const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });

/** The confirm bubble of a Popconfirm. */
export const confirmBubble = (page: Page) => page.getByRole('tooltip');

export const rowOf = (scope: Page | Locator, text: string) =>
  scope.getByRole('row').filter({ hasText: text });

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Picks the option of an open select whose text is exactly this. */
export async function chooseOption(page: Page, text: string, timeout?: number) {
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: new RegExp(`^${escaped(text)}$`) })
    .click({ timeout });
}

/**
 * Types into a picker and takes the option of exactly that text, then checks the picker holds it.
 * On a loaded machine a click has landed while the options were drawn again and chosen nothing,
 * so the whole pick is tried again until the picker shows its choice.
 */
export async function pick(
  page: Page,
  scope: Locator,
  label: string | RegExp,
  search: string,
  option: string,
) {
  const picker = scope.getByRole('combobox', { name: label });
  // The select shows its choice as text; what is typed into it is only the input's value.
  const select = scope
    .locator('.ant-select')
    .filter({ has: page.getByRole('combobox', { name: label }) });
  await expect(async () => {
    await picker.fill(search);
    await chooseOption(page, option, 10_000);
    await expect(select).toContainText(option, { timeout: 2_000 });
  }).toPass({ timeout: 45_000 });
}

/**
 * Opens a file chooser with `open` (a click, or Enter on a focused button) and gives it `file`.
 * Once in CI the chooser never reached the test: the focused button's Enter left the page with no
 * focus and no chooser event (production.spec, session 20). Playwright starts catching choosers
 * only when a test waits for one, so an opening that reaches the page first goes unseen; the
 * opening is tried again until a chooser is caught.
 */
export async function chooseFile(
  page: Page,
  open: () => Promise<void>,
  file: Parameters<FileChooser['setFiles']>[0],
) {
  await expect(async () => {
    const chooser = page.waitForEvent('filechooser', { timeout: 5_000 });
    await open();
    await (await chooser).setFiles(file);
  }).toPass({ timeout: 45_000 });
}

/**
 * Saves a form's dialog and waits for it to close. When it stays open, the failure quotes what
 * the form and the notifications say, since CI keeps only the log.
 */
export async function saveDialog(page: Page, form: Locator, button = 'Save') {
  await form.getByRole('button', { name: button }).click();
  try {
    await expect(form).toHaveCount(0);
  } catch (error) {
    const said = [
      ...(await form.locator('.ant-form-item-explain-error').allInnerTexts()),
      ...(await page.locator('.ant-notification-notice').allInnerTexts()),
    ];
    throw new Error(`The dialog stayed open; it says: ${said.join(' | ') || 'nothing'}`, {
      cause: error,
    });
  }
}

/** Searches a toolkit list and waits until it shows the one row. */
export async function searchList(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Search' }).fill(text);
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await expect(page.getByTestId('list-count')).toHaveText(/^1 /);
}

/** Closes the notifications, which sit top right over the drawers' buttons. */
export async function closeNotifications(page: Page) {
  await page.mouse.move(0, 0);
  await expect(page.locator('.ant-notification-notice')).toHaveCount(0, { timeout: 10_000 });
}

/**
 * Types a code as a keyboard-wedge scanner does: the characters, then Enter, wherever the focus
 * is.
 */
export async function wedgeScan(page: Page, code: string) {
  await page.keyboard.type(code, { delay: 5 });
  await page.keyboard.press('Enter');
}

/** A code whose last digit is off by one: a bad check digit. */
export const withBadCheckDigit = (imei: string) =>
  `${imei.slice(0, -1)}${(Number(imei.at(-1)) + 1) % 10}`;

/** Serious or critical accessibility violations (WCAG 2.1 A and AA) of the page, or of a part. */
export async function seriousViolations(page: Page, include?: string) {
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  const { violations } = await (include ? builder.include(include) : builder).analyze();
  return violations
    .filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''))
    .map((violation) => ({
      rule: violation.id,
      nodes: violation.nodes.map((node) => node.target),
    }));
}

/**
 * Every page an administrator may open, as the home page links them, visited in turn inside the
 * running app (the router follows a history change, so the app is not loaded again for each):
 * `visit` runs once the previous page is gone, the new page's heading shows and no request is in
 * flight. `extra` paths are visited after them.
 */
export async function visitEveryPage(
  page: Page,
  visit: (path: string) => Promise<void>,
  extra: readonly string[] = [],
) {
  let inFlight = 0;
  page.on('request', () => inFlight++);
  page.on('requestfinished', () => inFlight--);
  page.on('requestfailed', () => inFlight--);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  const paths = await page
    .getByRole('main')
    .getByRole('link')
    .evaluateAll((links) =>
      links.map((link) => new URL((link as HTMLAnchorElement).href).pathname),
    );
  expect(paths.length).toBeGreaterThan(90);
  await expect.poll(() => inFlight).toBe(0);
  await visit('/');
  const heading = page.getByRole('main').getByRole('heading').first();
  for (const path of [...new Set(paths), ...extra]) {
    // Each route mounts its page afresh, so the last page's heading leaves the document.
    const previous = await heading.elementHandle();
    await page.evaluate((to) => {
      window.history.pushState(null, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, path);
    await expect(page).toHaveURL((url) => url.pathname === path);
    await previous?.waitForElementState('hidden');
    await expect(heading).toBeVisible();
    await expect.poll(() => inFlight).toBe(0);
    await visit(path);
  }
}
