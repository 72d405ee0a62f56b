import { expect, test } from '@playwright/test';
import { ADMIN_PASSWORD, menuGroups, signIn } from './support';
import { chooseOption, closeNotifications, dialog, rowOf, seriousViolations } from './ui';

/** This spec's tag: its retailer and portal user never meet another spec's, nor an earlier run's. */
const TAG = 104;
const STAMP = `${Date.now() % 1_000_000}`;
const RETAILER = `Corner Wireless ${TAG}-${STAMP}`;
const BUYER = `buyer.${TAG}.${STAMP}`;
const BUYER_PASSWORD = 'corner-buyer-2026';

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  'latin1',
);

const inAYear = () => new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

test('a retailer with its address, contact, certificate and a portal user who reaches only the cart', async ({
  page,
}) => {
  // Two users' journeys, two sign-ins and a password change in one test.
  test.setTimeout(180_000);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Welcome, Administrator' })).toBeVisible();
  await page.goto('/retailer');
  await expect(page.getByRole('heading', { name: 'Retailers' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // The form: the retailer, its billing address and its main contact in one save.
  await page.getByRole('button', { name: 'New retailer' }).click();
  const form = dialog(page, 'New retailer');
  await form.getByLabel('Name', { exact: true }).fill(RETAILER);
  await form.getByLabel('Street address').fill('12 Main St');
  await form.getByLabel('City').fill('Austin');
  await form.getByRole('combobox', { name: 'State' }).fill('TX');
  await chooseOption(page, 'TX');
  await form.getByLabel('ZIP code').fill('7870');
  await form.getByLabel('Contact name').fill('Dana Ruiz');
  await form.getByLabel('Email').fill('dana@corner.example');
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);
  await form.getByRole('button', { name: 'Save' }).click();
  // The contract's ZIP rule, on the field, before anything is sent.
  await expect(form.getByText('Write the ZIP code as 12345 or 12345-6789.')).toBeVisible();
  await form.getByLabel('ZIP code').fill('78701');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`${RETAILER} is saved.`)).toBeVisible();
  await closeNotifications(page);

  const row = rowOf(page, RETAILER);
  await expect(row).toContainText('Dana Ruiz');
  await expect(row).toContainText('TX');
  await expect(row.getByTestId('certificate-status')).toHaveText('None');
  await expect(page.getByRole('columnheader', { name: 'Open orders' })).toBeVisible();
  await expect(row).toContainText('$0.00');

  // Its record: tax-exempt is refused until the certificate is recorded with its file.
  await row.getByRole('link', { name: RETAILER }).click();
  const drawer = dialog(page, RETAILER);
  await expect(drawer.getByRole('table').first()).toBeVisible();
  // Its orders, a tab of their own: none yet.
  await drawer.getByRole('tab', { name: 'Orders (0 open)' }).click();
  await expect(drawer.getByText(`${RETAILER} has no orders yet.`)).toBeVisible();
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);
  await drawer.getByRole('tab', { name: 'Account' }).click();
  await drawer.getByRole('button', { name: 'Edit' }).click();
  const edit = dialog(page, `Edit ${RETAILER}`);
  await edit.getByRole('switch', { name: 'Tax-exempt' }).click();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`${RETAILER} cannot be tax-exempt`)).toBeVisible();
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await closeNotifications(page);

  await drawer.getByLabel('Certificate number').fill(`TX-RC-${STAMP}`);
  await drawer.getByLabel('Expires on').fill(inAYear());
  await drawer.getByRole('button', { name: 'Record certificate' }).click();
  await expect(page.getByText(`The resale certificate of ${RETAILER} is recorded.`)).toBeVisible();
  await drawer.locator('input[type=file]').setInputFiles({
    name: 'resale-certificate.pdf',
    mimeType: 'application/pdf',
    buffer: PDF,
  });
  await expect(page.getByText('resale-certificate.pdf is attached.')).toBeVisible();
  await expect(drawer.getByTestId('certificate-status')).toHaveText(`Valid · ${inAYear()}`);
  await closeNotifications(page);

  await drawer.getByRole('button', { name: 'Edit' }).click();
  await edit.getByRole('switch', { name: 'Tax-exempt' }).click();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`${RETAILER} is saved.`)).toBeVisible();
  await expect(drawer.getByText('Tax-exempt')).toBeVisible();
  await expect(drawer.locator('.ant-descriptions')).toContainText('Yes');
  await closeNotifications(page);

  // A portal user, with the first password shown once.
  await drawer.getByRole('button', { name: 'New portal user' }).click();
  const newUser = dialog(page, `New portal user of ${RETAILER}`);
  await newUser.getByLabel('User name').fill(BUYER);
  await newUser.getByLabel('Name', { exact: true }).fill('Bea Buyer');
  await newUser.getByRole('button', { name: 'Create portal user' }).click();
  const password = (await newUser.getByTestId('temporary-password').innerText()).trim();
  expect(password).toHaveLength(14);
  expect(await seriousViolations(page, '.ant-modal')).toEqual([]);
  await newUser.getByRole('button', { name: 'Done' }).click();
  await expect(rowOf(drawer, BUYER)).toContainText('Not yet (temporary password)');
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);

  // The buyer signs in, sets their own password, and reaches their cart and nothing else.
  await page.evaluate(() => localStorage.clear());
  await signIn(page, BUYER, password);
  await expect(page.locator('.ant-drawer-title')).toHaveText('Update password');
  await page.getByLabel('New password', { exact: true }).fill(BUYER_PASSWORD);
  await page.getByLabel('Confirm new password').fill(BUYER_PASSWORD);
  await page.locator('.ant-drawer').getByRole('button', { name: 'Update password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, BUYER, BUYER_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Welcome, Bea Buyer' })).toBeVisible();
  await expect(page.getByText('No pages are open to you yet.')).toBeVisible();
  await expect(menuGroups(page)).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Cart, / })).toBeVisible();
  await page.goto('/retailer');
  await expect(page.getByRole('heading', { name: '403' })).toBeVisible();
  await expect(page.getByText(RETAILER)).toHaveCount(0);
});
