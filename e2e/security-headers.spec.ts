import { expect, test, type Page } from '@playwright/test';
import { ADMIN_PASSWORD, signIn } from './support';
import { closeNotifications, dialog } from './ui';

/**
 * Every Content-Security-Policy violation the page reports, from the first document on: the
 * `securitypolicyviolation` events and the console's "Refused to ..." errors.
 */
async function collectViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportViolation(text: string): void }).reportViolation;
      report(`${event.effectiveDirective} refused ${event.blockedURI} (${event.sourceFile})`);
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/** Whether the page's styles apply: antd's primary button is blue, not the browser's grey. */
async function expectStyled(page: Page, button: string) {
  await expect(page.getByRole('button', { name: button }).first()).toHaveCSS(
    'background-color',
    'rgb(9, 88, 217)',
  );
}

test('the app runs under its policy: sign-in, a list, a drawer, a notification, the API reference', async ({
  page,
}) => {
  const violations = await collectViolations(page);

  const answer = await page.goto('/login');
  const headers = answer!.headers();
  expect(headers).toMatchObject({
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  });
  const policy = headers['content-security-policy'] ?? '';
  // WebAssembly compiles (the agents' camera reader); no other code evaluation.
  expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval';");
  expect(policy).toContain("frame-ancestors 'none'");
  const nonce = /style-src 'self' 'nonce-([^']+)'/.exec(policy)?.[1];
  expect(nonce).toBeTruthy();
  await expectStyled(page, 'Sign in');
  // Every style tag antd wrote carries this answer's nonce.
  const styleNonces = await page.evaluate(() =>
    Array.from(document.querySelectorAll('style'), (style) => style.nonce),
  );
  expect(styleNonces.length).toBeGreaterThan(0);
  expect(new Set(styleNonces)).toEqual(new Set([nonce]));

  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Welcome, Administrator' })).toBeVisible();

  // A list, a drawer (which locks the page's scrolling while open) and a notification: antd
  // writes their styles when they first show.
  await page.goto('/master-data/colors');
  await expect(page.getByRole('heading', { name: 'Colours' })).toBeVisible();
  await expectStyled(page, 'New colour');
  await page.getByRole('button', { name: 'New colour' }).click();
  const drawer = dialog(page, 'New colour');
  const suffix = Date.now().toString(16).slice(-6).toUpperCase();
  await drawer.getByLabel('Name').fill(`Policy Teal ${suffix}`);
  await drawer.getByLabel('Hex').fill(`#${suffix}`);
  await drawer.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('.ant-notification-notice')).toContainText('Successes');
  await expect(page.getByRole('cell', { name: `Policy Teal ${suffix}` })).toBeVisible();
  await closeNotifications(page);

  // The API reference runs its own scripts under the same policy: it reads its document (some
  // megabytes), draws its closed sections, and opens one.
  await page.goto('/api/docs/');
  const section = page.locator('.swagger-ui .opblock-tag-section').first();
  await expect(section).toBeVisible({ timeout: 60_000 });
  await section.locator('.opblock-tag').click();
  await expect(section.locator('.opblock').first()).toBeVisible();

  expect(violations).toEqual([]);
});
