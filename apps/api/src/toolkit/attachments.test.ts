import { createHash } from 'node:crypto';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENTS_PER_RECORD_MAX,
  type Attachment,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createAdminTestApp, type ApiClient } from '../test/api-client.js';
import { bearer, bodyOf, createRole, createUser, login, type TestApp } from '../test/test-app.js';

/** Attachments, as purchase invoices carry them: the type check, the limit, access, deletion. */

let t: TestApp;
let admin: ApiClient;
let adminToken: string;
let vendorId: number;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp('clerk'));
  adminToken = await login(t.app, 'clerk', 'clerk-password-1');
  vendorId = bodyOf<{ id: number }>(
    await admin.post('/vendors', { name: 'Paper Trail Ltd', type: 'supplier' }),
  ).data.id;
});
afterAll(() => t.close());

let invoices = 0;
async function newInvoice(): Promise<number> {
  invoices += 1;
  const created = await admin.post('/purchase-invoices', {
    vendor_id: vendorId,
    invoice_no: `ATT-${invoices}`,
  });
  expect(created.statusCode, created.body).toBe(201);
  return bodyOf<{ id: number }>(created).data.id;
}

/** A small PDF with a line of text, so that each one is a different file. */
const pdf = (text: string) =>
  Buffer.from(
    `%PDF-1.4\n1 0 obj << /Title (${text}) >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
  );
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([4, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
]);

const filesOf = (invoiceId: number) => `/purchase-invoices/${invoiceId}/attachments`;

/** Sends a file as the web does: its bytes as the body, its name in the query. */
function upload(
  invoiceId: number,
  fileName: string,
  content: Buffer,
  token = adminToken,
  contentType = 'application/octet-stream',
) {
  return t.app.inject({
    method: 'POST',
    url: `/api/v1${filesOf(invoiceId)}?fileName=${encodeURIComponent(fileName)}`,
    headers: { ...bearer(token), 'content-type': contentType },
    payload: content,
  });
}

async function attach(invoiceId: number, fileName: string, content: Buffer) {
  const response = await upload(invoiceId, fileName, content);
  expect(response.statusCode, response.body).toBe(201);
  return bodyOf<Attachment>(response).data;
}

const fileMessage = (response: Awaited<ReturnType<typeof upload>>) => {
  expect(response.statusCode, response.body).toBe(422);
  return bodyOf(response).message as { file: string[] };
};

describe('a purchase invoice', () => {
  it('carries a PDF: listed with its size and hash, downloaded as sent, audited', async () => {
    const id = await newInvoice();
    const content = pdf('vendor invoice');
    const attached = await attach(id, 'Vendor invoice.pdf', content);
    expect(attached).toMatchObject({
      file_name: 'Vendor invoice.pdf',
      content_type: 'application/pdf',
      size_bytes: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
      uploaded_by: 'Name of clerk',
    });
    expect(bodyOf<Attachment[]>(await admin.get(filesOf(id))).data).toEqual([attached]);

    const file = await admin.download(`${filesOf(id)}/${attached.id}/download`, {});
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(content)).toBe(true);
    expect(file.headers).toMatchObject({
      'content-type': 'application/pdf',
      'content-disposition': 'attachment; filename="Vendor invoice.pdf"',
      'x-content-type-options': 'nosniff',
    });

    const events = await t.db.query<{ action: string; entity_id: string }>(
      `SELECT action, entity_id FROM audit_events WHERE action LIKE 'purchase_invoice.attachment%'
       AND entity_id = $1`,
      [String(id)],
    );
    expect(events).toEqual([
      { action: 'purchase_invoice.attachment_added', entity_id: String(id) },
    ]);
  });

  it('takes pictures, each type known by its content', async () => {
    const id = await newInvoice();
    const types = await Promise.all(
      [
        ['box.png', PNG],
        ['label.JPG', JPEG],
        ['label.jpeg', Buffer.concat([JPEG, Buffer.from('another')])],
        ['seal.webp', WEBP],
      ].map(
        async ([name, content]) =>
          (await attach(id, name as string, content as Buffer)).content_type,
      ),
    );
    expect(types).toEqual(['image/png', 'image/jpeg', 'image/jpeg', 'image/webp']);
  });

  it('refuses a file whose content is not what its name says, whatever the sender claims', async () => {
    const id = await newInvoice();
    expect(
      fileMessage(await upload(id, 'invoice.pdf', Buffer.from('MZ\x90\x00 not a pdf'))),
    ).toEqual({
      file: ['The file is named .pdf but is not a PDF file: attach the PDF itself.'],
    });
    expect(fileMessage(await upload(id, 'invoice.pdf', PNG))).toEqual({
      file: ['The file is named .pdf but is a PNG file: name it .png.'],
    });
    expect(
      fileMessage(await upload(id, 'invoice.html', Buffer.from('<script>alert(1)</script>')))
        .file[0],
    ).toBe('Attach a PDF, PNG, JPEG or WebP file (.pdf, .png, .jpg, .jpeg, .webp).');
    expect(fileMessage(await upload(id, 'empty.pdf', Buffer.alloc(0)))).toEqual({
      file: ['The file is empty.'],
    });
    // The sender's content type is not read: the content alone says what the file is.
    const claimed = await upload(id, 'photo.png', pdf('claimed'), adminToken, 'text/csv');
    expect(fileMessage(claimed)).toEqual({
      file: ['The file is named .png but is a PDF file: name it .pdf.'],
    });
    expect(bodyOf<Attachment[]>(await admin.get(filesOf(id))).data).toEqual([]);
  });

  it('takes a file of the limit exactly and refuses one byte more without reading it', async () => {
    const id = await newInvoice();
    const largest = Buffer.alloc(ATTACHMENT_MAX_BYTES, 0x20);
    largest.write('%PDF-1.7\n');
    expect((await attach(id, 'scan.pdf', largest)).size_bytes).toBe(ATTACHMENT_MAX_BYTES);
    const over = Buffer.alloc(ATTACHMENT_MAX_BYTES + 1, 0x20);
    over.write('%PDF-1.7\n');
    const refused = await upload(id, 'bigger.pdf', over);
    expect(refused.statusCode).toBe(413);
    expect(bodyOf(refused).message).toBe('Request body is too large');
    expect(bodyOf<Attachment[]>(await admin.get(filesOf(id))).data).toHaveLength(1);
  });

  it('takes each file once and at most the limit of files', async () => {
    const id = await newInvoice();
    await attach(id, 'first.pdf', pdf('same'));
    const again = await upload(id, 'copy.pdf', pdf('same'));
    expect(again.statusCode).toBe(409);
    expect(bodyOf(again).message).toBe('This file is attached already, as first.pdf.');
    for (let n = 1; n < ATTACHMENTS_PER_RECORD_MAX; n += 1) {
      await attach(id, `page-${n}.pdf`, pdf(`page ${n}`));
    }
    const past = await upload(id, 'one-more.pdf', pdf('one more'));
    expect(past.statusCode).toBe(409);
    expect(bodyOf(past).message).toBe(
      `This purchase invoice holds ${ATTACHMENTS_PER_RECORD_MAX} files, the most it may: remove one first.`,
    );
  });

  it('keeps to the limit and takes a file once when uploads arrive at once', async () => {
    const id = await newInvoice();
    for (let n = 1; n < ATTACHMENTS_PER_RECORD_MAX; n += 1) {
      await attach(id, `sheet-${n}.pdf`, pdf(`sheet ${n}`));
    }
    const racing = await Promise.all(
      [1, 2, 3, 4].map((n) => upload(id, `late-${n}.pdf`, pdf(`late ${n}`))),
    );
    expect(racing.map((response) => response.statusCode).sort()).toEqual([201, 409, 409, 409]);
    const [held] = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM attachments WHERE record_kind = 'purchase_invoice' AND record_id = $1",
      [id],
    );
    expect(held!.n).toBe(ATTACHMENTS_PER_RECORD_MAX);

    const other = await newInvoice();
    const twice = await Promise.all(
      ['one.pdf', 'two.pdf'].map((name) => upload(other, name, pdf('twice'))),
    );
    expect(twice.map((response) => response.statusCode).sort()).toEqual([201, 409]);
    const [kept] = bodyOf<Attachment[]>(await admin.get(filesOf(other))).data;
    const refused = twice.find((response) => response.statusCode === 409)!;
    expect(bodyOf(refused).message).toBe(`This file is attached already, as ${kept!.file_name}.`);
  });

  it('gives a name of any script back exactly', async () => {
    const id = await newInvoice();
    const attached = await attach(id, 'Счёт "№5".pdf', pdf('cyrillic'));
    const file = await admin.download(`${filesOf(id)}/${attached.id}/download`, {});
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="____ __5_.pdf"; filename*=UTF-8''${encodeURIComponent('Счёт "№5".pdf')}`,
    );
  });

  it('loses a removed file, and says so in the audit log', async () => {
    const id = await newInvoice();
    const kept = await attach(id, 'kept.pdf', pdf('kept'));
    const gone = await attach(id, 'gone.pdf', pdf('gone'));
    const removed = await admin.delete(`${filesOf(id)}/${gone.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(bodyOf(removed).message).toBe('gone.pdf is removed.');
    expect(bodyOf<Attachment[]>(await admin.get(filesOf(id))).data).toEqual([kept]);
    expect((await admin.delete(`${filesOf(id)}/${gone.id}`)).statusCode).toBe(404);
    const [event] = await t.db.query<{ before: { file_name: string } }>(
      `SELECT before FROM audit_events WHERE action = 'purchase_invoice.attachment_removed'
       AND entity_id = $1`,
      [String(id)],
    );
    expect(event!.before.file_name).toBe('gone.pdf');
  });

  it('takes its files with it when it is deleted; a link made before finds nothing', async () => {
    const id = await newInvoice();
    const attached = await attach(id, 'doomed.pdf', pdf('doomed'));
    const link = bodyOf<{ url: string }>(
      await admin.post(`${filesOf(id)}/${attached.id}/download`),
    ).data;
    expect((await admin.delete(`/purchase-invoices/${id}`)).statusCode).toBe(200);
    const [left] = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM attachments WHERE record_kind = 'purchase_invoice' AND record_id = $1",
      [id],
    );
    expect(left!.n).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: link.url })).statusCode).toBe(404);
  });

  it('leaves no file behind when an upload meets the deletion of its invoice', async () => {
    const id = await newInvoice();
    let locked!: () => void;
    let release!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    // The deletion holds the invoice, as deleteInvoice does, while the upload arrives.
    const deleting = t.db.transaction(async (tx) => {
      await tx.query('SELECT 1 FROM purchase_invoices WHERE id = $1 FOR UPDATE', [id]);
      locked();
      await held;
      await tx.query('DELETE FROM purchase_invoices WHERE id = $1', [id]);
    });
    await lockTaken;
    const sending = upload(id, 'late.pdf', pdf('late'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await deleting;
    expect((await sending).statusCode).toBe(404);
    const [left] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM attachments WHERE record_id = $1',
      [id],
    );
    expect(left!.n).toBe(0);
  });
});

describe('who reaches the files', () => {
  let viewer: ApiClient;
  let viewerToken: string;
  let outsider: ApiClient;
  let invoiceId: number;
  let attachment: Attachment;

  beforeAll(async () => {
    await createRole(t.db, 'Invoice reader', ['invoice.view-list']);
    await createRole(t.db, 'Vendor reader', ['vendor.view-list']);
    await createUser(t.db, {
      userName: 'reader',
      password: 'reader-pass-1',
      roles: ['Invoice reader'],
    });
    await createUser(t.db, {
      userName: 'other',
      password: 'other-pass-1',
      roles: ['Vendor reader'],
    });
    viewerToken = await login(t.app, 'reader', 'reader-pass-1');
    viewer = apiClient(t, viewerToken);
    outsider = apiClient(t, await login(t.app, 'other', 'other-pass-1'));
    invoiceId = await newInvoice();
    attachment = await attach(invoiceId, 'terms.pdf', pdf('terms'));
  });

  it('lets a reader of invoices list and download them, not attach or remove', async () => {
    expect(bodyOf<Attachment[]>(await viewer.get(filesOf(invoiceId))).data).toEqual([attachment]);
    const file = await viewer.download(`${filesOf(invoiceId)}/${attachment.id}/download`, {});
    expect(file.statusCode).toBe(200);
    expect((await upload(invoiceId, 'mine.pdf', pdf('mine'), viewerToken)).statusCode).toBe(403);
    expect((await viewer.delete(`${filesOf(invoiceId)}/${attachment.id}`)).statusCode).toBe(403);
  });

  it('refuses one who may not see invoices', async () => {
    expect((await outsider.get(filesOf(invoiceId))).statusCode).toBe(403);
    expect(
      (await outsider.post(`${filesOf(invoiceId)}/${attachment.id}/download`)).statusCode,
    ).toBe(403);
  });

  it('answers 404 for an invoice that does not exist, or a file of another invoice', async () => {
    const missing = 999_999;
    expect((await admin.get(filesOf(missing))).statusCode).toBe(404);
    const sent = await upload(missing, 'lost.pdf', pdf('lost'));
    expect(sent.statusCode).toBe(404);
    expect(bodyOf(sent).message).toBe(`There is no purchase invoice with id ${missing}.`);
    const other = await newInvoice();
    expect((await admin.post(`${filesOf(other)}/${attachment.id}/download`)).statusCode).toBe(404);
    expect((await admin.delete(`${filesOf(other)}/${attachment.id}`)).statusCode).toBe(404);
    expect(bodyOf<Attachment[]>(await admin.get(filesOf(invoiceId))).data).toHaveLength(1);
  });
});
