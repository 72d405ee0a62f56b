import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { apiAs } from './api';
import { ADMIN_PASSWORD, signIn } from './support';
import { chooseFile, confirmBubble, dialog, rowOf, seriousViolations } from './ui';

/** This run's names: its vendor and invoice never meet another spec's, nor an earlier run's. */
const STAMP = `${Date.now() % 1_000_000}`;
const INVOICE = `ATT-${STAMP}`;

/** A small PDF, made here: one page that says which invoice it belongs to. */
function invoicePdf(text: string): Buffer {
  const content = `BT /F1 18 Tf 20 60 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets = objects.map((object, index) => {
    const offset = body.length;
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

let invoiceId: number;

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const api = await apiAs(request, 'admin', ADMIN_PASSWORD);
  const vendor = await api.post<{ id: number }>('/vendors', {
    name: `Paper vendor ${STAMP}`,
    type: 'supplier',
  });
  invoiceId = (
    await api.post<{ id: number }>('/purchase-invoices', {
      vendor_id: vendor.id,
      invoice_no: INVOICE,
    })
  ).id;
  await request.dispose();
});

test('a purchase invoice carries its PDF: attached, listed, downloaded, removed', async ({
  page,
}) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Welcome, Administrator' })).toBeVisible();
  // The invoice's address opens its drawer.
  await page.goto(`/shipment-management/invoice?invoice=${invoiceId}`);
  await expect(page.getByRole('heading', { name: 'Purchase invoices' })).toBeVisible();
  const drawer = dialog(page, `Invoice ${INVOICE}`);
  await expect(drawer.getByText('Vendor', { exact: true })).toBeVisible();
  const files = drawer.getByRole('table', { name: 'Attachments' });
  await expect(files).toContainText('No files attached.');
  // The rule is said before a file is chosen.
  await expect(drawer).toContainText('PDF, PNG, JPEG or WebP, up to 10 MB.');

  const pdf = invoicePdf(`Invoice ${INVOICE}`);
  await chooseFile(page, () => drawer.getByRole('button', { name: 'Attach a file' }).click(), {
    name: `${INVOICE}.pdf`,
    mimeType: 'application/pdf',
    buffer: pdf,
  });
  await expect(page.getByText(`${INVOICE}.pdf is attached.`)).toBeVisible();
  const row = rowOf(files, `${INVOICE}.pdf`);
  await expect(row).toContainText('PDF');
  await expect(row).toContainText('by Administrator');

  // Its name downloads it: the very bytes sent.
  const downloading = page.waitForEvent('download');
  await row.getByRole('button', { name: `${INVOICE}.pdf`, exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${INVOICE}.pdf`);
  expect((await readFile((await download.path())!)).equals(pdf)).toBe(true);

  // A text file renamed .pdf is refused by its content, whatever the browser calls it.
  await drawer.locator('input[type=file]').setInputFiles({
    name: 'not-really.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('Dear vendor, this is a letter, not a PDF.\n'),
  });
  await expect(drawer.getByTestId('attachment-refusal')).toContainText(
    'not-really.pdf: The file is named .pdf but is not a PDF file: attach the PDF itself.',
  );
  // A file of another kind is refused before it is sent.
  await drawer.locator('input[type=file]').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('notes'),
  });
  await expect(drawer.getByTestId('attachment-refusal')).toContainText(
    'notes.txt: Attach a PDF, PNG, JPEG or WebP file',
  );
  await expect(files.getByRole('row')).toHaveCount(2);
  expect(await seriousViolations(page, '.ant-drawer')).toEqual([]);

  // Still there after a reload: the file lives on the server.
  await page.reload();
  await expect(rowOf(files, `${INVOICE}.pdf`)).toBeVisible();
  await rowOf(files, `${INVOICE}.pdf`)
    .getByRole('button', { name: `Remove ${INVOICE}.pdf` })
    .click();
  await confirmBubble(page).getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText(`${INVOICE}.pdf is removed.`)).toBeVisible();
  await expect(files).toContainText('No files attached.');
});
