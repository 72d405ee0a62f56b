import { purchaseInvoiceAttachments } from '@inventory/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AttachmentsPanel } from './attachments-panel';

vi.mock('../shell/use-can', () => ({ useCan: () => true }));
// antd's notifications live outside the rendered tree and close on a timer, which would fire
// after the test environment is gone.
vi.mock('../shell/notify', () => ({ notify: { success: vi.fn(), error: vi.fn() } }));

/** An upload the test answers when it chooses. */
type Sent = { fileName: string; answer: (status: number, body: unknown) => void };
let sent: Sent[];
let client: QueryClient;

beforeEach(() => {
  sent = [];
  // The table asks the screen's width, which jsdom does not know.
  vi.stubGlobal('matchMedia', () => ({
    matches: false,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
  }));
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    if (init.method !== 'POST') {
      return Promise.resolve(Response.json({ code: 200, message: 'OK', data: [] }));
    }
    return new Promise<Response>((resolve) => {
      sent.push({
        fileName: new URL(url, 'http://app').searchParams.get('fileName')!,
        answer: (status, body) => resolve(Response.json(body, { status })),
      });
    });
  });
});
afterEach(() => {
  cleanup();
  // Nothing of a test may run on after the test environment is gone.
  client.clear();
  vi.unstubAllGlobals();
});

function panel() {
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={client}>
      <AttachmentsPanel definition={purchaseInvoiceAttachments} recordId={7} />
    </QueryClientProvider>,
  );
  const choose = (...names: string[]) =>
    act(() => {
      fireEvent.change(view.container.querySelector('input[type=file]')!, {
        target: { files: names.map((name) => new File(['%PDF-1.4'], name)) },
      });
    });
  return { view, choose };
}

const attached = (fileName: string) => ({
  code: 201,
  message: `${fileName} is attached.`,
  data: { id: 1, file_name: fileName },
});

describe('the attachments panel', () => {
  it('sends the files chosen together one at a time, in order', async () => {
    const { choose } = panel();
    await choose('first.pdf', 'second.pdf', 'third.pdf');
    await waitFor(() => expect(sent.map((file) => file.fileName)).toEqual(['first.pdf']));
    await act(async () => sent[0]!.answer(201, attached('first.pdf')));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]!.fileName).toBe('second.pdf');
    await act(async () => sent[1]!.answer(201, attached('second.pdf')));
    await waitFor(() => expect(sent.map((file) => file.fileName)).toHaveLength(3));
    expect(sent[2]!.fileName).toBe('third.pdf');
    await act(async () => sent[2]!.answer(201, attached('third.pdf')));
  });

  it('refuses a name the server would refuse before sending it', async () => {
    const { view, choose } = panel();
    await choose(`${'long '.repeat(60)}.pdf`);
    expect((await view.findByTestId('attachment-refusal')).textContent).toContain(
      'The file name is too long (at most 255 characters).',
    );
    expect(sent).toEqual([]);
  });

  it("shows the server's refusal of a file's name as it shows one of its content", async () => {
    const { view, choose } = panel();
    await choose('scan.pdf');
    await waitFor(() => expect(sent).toHaveLength(1));
    await act(async () =>
      sent[0]!.answer(422, {
        code: 422,
        message: { fileName: ['The file name holds a character it may not.'] },
      }),
    );
    expect((await view.findByTestId('attachment-refusal')).textContent).toBe(
      'scan.pdf: The file name holds a character it may not.',
    );
  });
});
