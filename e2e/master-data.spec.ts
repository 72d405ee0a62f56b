import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN_PASSWORD, signIn } from './support';

const drawer = (page: Page) => page.locator('.ant-drawer-content');

/** Uploads a file by its content through the import drawer's file input. */
async function uploadFile(page: Page, name: string, content: string) {
  await drawer(page)
    .locator('input[type=file]')
    .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(content) });
}

test('colours: validate on the form, create, find, export the filtered list, import with a dry run', async ({
  page,
}) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
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
  await drawer(page).getByRole('button', { name: 'Close' }).click();

  // The search is in the address: the filtered list is a link.
  await page.getByRole('searchbox', { name: 'Search' }).fill('orange');
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await expect(page).toHaveURL(/search=orange/);
  await expect(page.getByTestId('list-count')).toHaveText('1 colours');
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
