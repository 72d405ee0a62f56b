import type { CarrierUpdateKind, FileColumn } from '@inventory/contract';
import type { Cell } from '../../toolkit/files.js';

/**
 * What fulfilment asks of a client carrier about an order's units (DOMAIN.md 4.14): an OTA
 * order's pairing (IMEI + ICCID) or an existing customer's device change. Two deliveries behind
 * one call, as the label desk's `carrier-adapter.ts` puts carriers behind one: the built-in batch
 * file, handed to the carrier and answered later by its answer file, and an HTTP endpoint that
 * answers each update at once.
 */

export type CarrierUpdateRequest = {
  readonly id: number;
  readonly orderNumber: string;
  readonly kind: CarrierUpdateKind;
  readonly units: readonly { readonly imei: string; readonly iccid: string | null }[];
  /** Times it was submitted before this one: a new attempt is a new request to the carrier. */
  readonly attempts: number;
};

export type CarrierAnswer = {
  readonly result: 'ok' | 'failed';
  readonly message: string | null;
};

/** A batch file to hand to the carrier: one row per unit. */
export type CarrierUpdateFile = {
  readonly columns: readonly FileColumn[];
  readonly rows: readonly Cell[][];
};

/** What a delivery gives back: the carrier's answers now, or a file answered later. */
export type CarrierDelivery =
  { readonly answers: ReadonlyMap<number, CarrierAnswer> } | { readonly file: CarrierUpdateFile };

export interface CarrierUpdateAdapter {
  readonly delivery: 'batch_file' | 'http';
  /**
   * Hands the updates to the carrier. Throws when the carrier could not be reached or answered
   * with a fault of its own (a 5xx): the caller tries again later.
   */
  deliver(updates: readonly CarrierUpdateRequest[]): Promise<CarrierDelivery>;
}

/** How a client carrier takes updates (`client_carrier_links`): no URL means by batch file. */
export type CarrierLinkSettings = {
  readonly update_url: string | null;
  readonly update_key: string | null;
};

const FILE_COLUMNS: readonly FileColumn[] = [
  { key: 'order', header: 'Order', example: 'SO-0000123' },
  { key: 'imei', header: 'IMEI', example: '352836110000008' },
  { key: 'iccid', header: 'ICCID', example: '8901260000000000001' },
  { key: 'kind', header: 'Kind', example: 'pairing' },
];

/** The built-in batch file: order, IMEI, ICCID and kind, one row per unit. */
export const batchFileAdapter = (): CarrierUpdateAdapter => ({
  delivery: 'batch_file',
  deliver: (updates) =>
    Promise.resolve({
      file: {
        columns: FILE_COLUMNS,
        rows: updates.flatMap((update) =>
          update.units.map((unit): Cell[] => [
            update.orderNumber,
            unit.imei,
            unit.iccid ?? '',
            update.kind,
          ]),
        ),
      },
    }),
});

/** How long the carrier's endpoint may take to answer one update. */
const HTTP_TIMEOUT_MS = 10_000;

/** The words of a carrier's answer body, `{"message": "..."}`, if it has any. */
function messageOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const { message } = body as { message?: unknown };
  return typeof message === 'string' && message ? message.slice(0, 500) : null;
}

/** The carrier's answer body: `{"result": "ok" | "failed", "message": "..."}`. */
function answerOf(body: unknown): CarrierAnswer | null {
  if (typeof body !== 'object' || body === null) return null;
  const { result } = body as { result?: unknown };
  if (result !== 'ok' && result !== 'failed') return null;
  return { result, message: messageOf(body) };
}

/**
 * The carrier's HTTP endpoint: each update POSTed as JSON with the carrier's key as a bearer
 * token and an idempotency key of the update and attempt. A 2xx answers `{result, message}`; a
 * 4xx is the carrier refusing the update (failed, with its words); a 5xx, a timeout or an answer
 * that cannot be read throws, to be tried again.
 */
export const httpAdapter = (url: string, key: string | null): CarrierUpdateAdapter => ({
  delivery: 'http',
  async deliver(updates) {
    const answers = new Map<number, CarrierAnswer>();
    for (const update of updates) {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': `carrier-update-${update.id}-${update.attempts}`,
          ...(key ? { authorization: `Bearer ${key}` } : {}),
        },
        body: JSON.stringify({
          reference: `carrier-update-${update.id}`,
          order: update.orderNumber,
          kind: update.kind,
          units: update.units,
        }),
        signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
      });
      const text = await response.text();
      if (response.status >= 500) {
        throw new Error(`The carrier answered ${response.status}: ${text.slice(0, 200)}`);
      }
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        // Read as words below.
      }
      if (!response.ok) {
        const message = messageOf(body) ?? (text.slice(0, 500) || null);
        answers.set(update.id, {
          result: 'failed',
          message: `Refused (${response.status})${message ? `: ${message}` : ''}`,
        });
        continue;
      }
      const answer = answerOf(body);
      if (!answer) throw new Error(`The carrier's answer cannot be read: ${text.slice(0, 200)}`);
      answers.set(update.id, answer);
    }
    return { answers };
  },
});

/** The adapter of a carrier's link: its HTTP endpoint when one is set, the batch file if not. */
export const carrierUpdateAdapter = (link: CarrierLinkSettings): CarrierUpdateAdapter =>
  link.update_url ? httpAdapter(link.update_url, link.update_key) : batchFileAdapter();
