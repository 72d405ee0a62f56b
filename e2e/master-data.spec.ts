import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ADMIN_PASSWORD, signIn } from './support';

const drawer = (page: Page) => page.getByRole('dialog');

/**
 * Closes the notifications, which sit top right (spec section 8) over the page's own buttons and
 * stay while the pointer rests on them.
 */
async function closeNotifications(page: Page) {
  await page.mouse.move(0, 0);
  await expect(page.locator('.ant-notification-notice')).toHaveCount(0, { timeout: 10_000 });
}

async function signInAs(page: Page) {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Welcome, Administrator' })).toBeVisible();
}

/** Uploads a file by its content through the import drawer's file input. */
async function uploadFile(page: Page, name: string, content: string) {
  await drawer(page)
    .locator('input[type=file]')
    .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(content) });
}

test('colours: validate on the form, create, find, export the filtered list, import with a dry run', async ({
  page,
}) => {
  await signInAs(page);
  await page.goto('/master-data/colors');
  await expect(page.getByRole('heading', { name: 'Colours' })).toBeVisible();

  // The form checks with the contract's own rules before sending.
  await page.getByRole('button', { name: 'New colour' }).click();
  await drawer(page).getByLabel('Name').fill('Alpine Green');
  await drawer(page).getByLabel('Hex').fill('green');
  await drawer(page).getByRole('button', { name: 'Save' }).click();
  await expect(drawer(page)).toContainText('Write the colour as six hex digits, like #1A2B3C.');
  await drawer(page).getByLabel('Hex').fill('#576856');
  await drawer(page).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('cell', { name: 'Alpine Green' })).toBeVisible();
  await closeNotifications(page);

  // Its name is the link that opens its form, at an address a reload opens again.
  await page.getByRole('link', { name: 'Alpine Green', exact: true }).click();
  await expect(page).toHaveURL(/[?&]id=\d+/);
  await page.reload();
  const editing = page.getByRole('dialog', { name: 'Edit colour Alpine Green' });
  await expect(editing.getByLabel('Hex')).toHaveValue('#576856');
  await editing.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).not.toHaveURL(/[?&]id=/);

  // A duplicate name, whatever its case, comes back from the server onto the field.
  await page.getByRole('button', { name: 'New colour' }).click();
  await drawer(page).getByLabel('Name').fill('ALPINE GREEN');
  await drawer(page).getByRole('button', { name: 'Save' }).click();
  await expect(drawer(page)).toContainText('A colour with this name exists.');
  await drawer(page).getByRole('button', { name: 'Cancel' }).click();

  // Import: the dry run shows the bad row and writes nothing; the fixed file goes in at once.
  await page.getByRole('button', { name: 'Import' }).click();
  await uploadFile(
    page,
    'colours.csv',
    'Name,Hex\nSunset Orange,#FF7F50\nBad Colour,not-a-colour\n',
  );
  await drawer(page).getByRole('button', { name: 'Check every row' }).click();
  await expect(drawer(page)).toContainText('1 error in colours.csv: nothing has been written.');
  await expect(drawer(page).getByRole('cell', { name: 'not-a-colour' })).toBeVisible();
  await drawer(page).getByRole('button', { name: 'Upload a corrected file' }).click();
  await uploadFile(page, 'colours.csv', 'Name,Hex\nSunset Orange,#FF7F50\nDeep Purple,#4B0082\n');
  await drawer(page).getByRole('button', { name: 'Check every row' }).click();
  await expect(drawer(page)).toContainText('Every row is right: 2 to create, 0 to update.');
  await drawer(page).getByRole('button', { name: 'Import 2 rows' }).click();
  await expect(drawer(page)).toContainText('2 created, 0 updated.');
  await drawer(page).getByRole('button', { name: 'Done' }).click();

  // The search is in the address: the filtered list is a link.
  await page.getByRole('searchbox', { name: 'Search' }).fill('orange');
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await expect(page).toHaveURL(/search=orange/);
  await expect(page.getByTestId('list-count')).toHaveText('1 colour');
  await page.reload();
  await expect(page.getByRole('cell', { name: 'Sunset Orange' })).toBeVisible();

  // Export the filtered list and open the file.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  await page.getByRole('menuitem', { name: 'CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^colors-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
  const lines = text.trim().split('\r\n');
  expect(lines[0]).toBe('ID,Name,Hex,Aliases,Active,TAC numbers,Updated');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain('Sunset Orange,#FF7F50');
});

/** An IMEI with the given TAC, a serial and a valid check digit (written out: the test is the spec). */
function imeiOf(tac: string, serial: string): string {
  const payload = `${tac}${serial}`;
  let sum = 0;
  for (let i = 0; i < payload.length; i += 1) {
    let digit = Number(payload[payload.length - 1 - i]);
    if (i % 2 === 0) digit *= 2;
    sum += digit > 9 ? digit - 9 : digit;
  }
  return `${payload}${(10 - (sum % 10)) % 10}`;
}

/** A field's combobox; a required field's name starts with its asterisk. */
const combobox = (scope: Locator, label: string) =>
  scope.getByRole('combobox', { name: new RegExp(`^(\\* )?${label}$`) });

/** Types into a searching select and picks the option. */
async function chooseOption(page: Page, label: string, text: string, scope = page.locator('body')) {
  await combobox(scope, label).fill(text);
  await page.locator('.ant-select-item-option', { hasText: text }).first().click();
}

/** Opens a plain select and picks the option. */
async function pickOption(page: Page, label: string, text: string, scope: Locator) {
  await combobox(scope, label).click();
  await page.locator('.ant-select-item-option', { hasText: text }).first().click();
}

test('a product-information clerk: a model, its TACs, an IMEI lookup, 200 TACs imported, the filtered export', async ({
  page,
}) => {
  // Five pages, an import and an export: near two minutes on a loaded run.
  test.setTimeout(180_000);
  await signInAs(page);

  // Create the model.
  await page.goto('/master-data/models');
  await page.getByRole('button', { name: 'New model' }).click();
  await drawer(page).getByLabel('Brand').fill('Motorola');
  await drawer(page).getByLabel('Model name').fill('Moto G Play 2023');
  await drawer(page).getByLabel('Model numbers').fill('XT2271DL');
  await drawer(page).getByLabel('Model numbers').press('Enter');
  await pickOption(page, 'OS', 'android', drawer(page));
  await drawer(page).getByLabel('Storage').fill('32');
  await drawer(page).getByRole('button', { name: 'Save' }).click();
  // Exactly: the cell of its TAC count is named by the link to the model's TAC numbers.
  await expect(page.getByRole('cell', { name: 'Moto G Play 2023', exact: true })).toBeVisible();
  await closeNotifications(page);

  // Add a TAC by hand.
  await page.goto('/master-data/tac-number');
  await page.getByRole('button', { name: 'New TAC number' }).click();
  await drawer(page).getByLabel('TAC').fill('3528361');
  await chooseOption(page, 'Model', 'Moto G Play 2023', drawer(page));
  await drawer(page).getByRole('button', { name: 'Save' }).click();
  await expect(drawer(page)).toContainText('8 digits');
  await drawer(page).getByLabel('TAC').fill('35283611');
  await drawer(page).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('cell', { name: '35283611' })).toBeVisible();
  await closeNotifications(page);

  // Look an IMEI up: its TAC names the model.
  await page.getByLabel('Look up an IMEI').fill(imeiOf('35283611', '004217'));
  await page.getByLabel('Look up an IMEI').press('Enter');
  await expect(page.getByTestId('lookup-result')).toContainText('Moto G Play 2023');

  // Import 200 TACs from a file with two bad rows: shown at the check, nothing written.
  const rows = Array.from(
    { length: 200 },
    (_, i) => `${36010000 + i},Motorola Moto G Play 2023,32,`,
  );
  rows[40] = '3601004,Motorola Moto G Play 2023,32,';
  rows[120] = '36010120,Nokia 3310,32,';
  await page.getByRole('button', { name: 'Import' }).click();
  await uploadFile(page, 'tacs.csv', ['TAC,Model,Capacity GB,Colour', ...rows].join('\n'));
  await drawer(page).getByRole('button', { name: 'Check every row' }).click();
  await expect(drawer(page)).toContainText('2 errors in tacs.csv: nothing has been written.');
  await expect(drawer(page).getByRole('cell', { name: '3601004', exact: true })).toBeVisible();
  await expect(drawer(page).getByRole('cell', { name: 'Nokia 3310', exact: true })).toBeVisible();
  await drawer(page).locator('.ant-drawer-close').click();
  await page.getByRole('searchbox', { name: 'Search' }).fill('3601');
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await expect(page.getByTestId('list-count')).toHaveText('0 TAC numbers');

  // Fixed, the file goes in whole.
  rows[40] = '36010040,Motorola Moto G Play 2023,32,';
  rows[120] = '36010120,XT2271DL,32,';
  await page.getByRole('button', { name: 'Import' }).click();
  await uploadFile(page, 'tacs.csv', ['TAC,Model,Capacity GB,Colour', ...rows].join('\n'));
  await drawer(page).getByRole('button', { name: 'Check every row' }).click();
  await expect(drawer(page)).toContainText('Every row is right: 200 to create, 0 to update.');
  await drawer(page).getByRole('button', { name: 'Import 200 rows' }).click();
  await expect(drawer(page)).toContainText('200 created, 0 updated.');
  await drawer(page).getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('list-count')).toHaveText('200 TAC numbers');

  // Filter by the model, export the filtered list and open the file.
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await chooseOption(page, 'Model', 'Moto G Play 2023');
  await expect(page).toHaveURL(/model_id=\d+/);
  await expect(page.getByTestId('list-count')).toHaveText('201 TAC numbers');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  await page.getByRole('menuitem', { name: 'CSV' }).click();
  const file = await readFile((await (await downloading).path())!, 'utf8');
  const lines = file
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(lines[0]).toMatch(/^TAC,Model,Capacity GB,Colour/);
  expect(lines).toHaveLength(202);
  expect(lines[1]).toMatch(/^35283611,Motorola Moto G Play 2023,/);
});
