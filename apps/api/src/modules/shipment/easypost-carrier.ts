import EasyPost, { type IPostageLabel, type IShipment } from '@easypost/api';
import {
  SHIPPING_SERVICE_INFO,
  type Carrier,
  type LabelFormat,
  type ShippingService,
} from '@inventory/contract';
import * as z from 'zod/mini';
import type { LabelFile } from '../../toolkit/documents/label.js';
import {
  CarrierRefusal,
  CarrierUnavailable,
  type CarrierAdapter,
  type CarrierEvent,
  type LabelAddress,
  type LabelRequest,
} from './carrier-adapter.js';

/**
 * The EasyPost adapter (DOMAIN.md 4.14, 4.16) on EasyPost's own client: a label is a Shipment
 * bought at the rate of the order's service, its label file fetched for the label desk to print;
 * a void is the Shipment's refund; tracking reads the parcels' Trackers, and EasyPost's webhook
 * sends their updates (`tracking.routes.ts`).
 */

/**
 * The package's types describe CommonJS's `exports.default`; what an ES module imports at run
 * time is the client class itself.
 */
const EasyPostClient = EasyPost as unknown as typeof EasyPost.default;
type Client = InstanceType<typeof EasyPostClient>;

export type EasyPostSettings = {
  readonly apiKey: string;
  /** Another address than EasyPost's own (a stand-in in tests), ending in `/v2/`. */
  readonly baseUrl: string | null;
};

/** Our services as EasyPost names their carriers and services in its rates. */
const EASYPOST_SERVICE: Record<ShippingService, { carrier: string; service: string }> = {
  usps_ground_advantage: { carrier: 'USPS', service: 'GroundAdvantage' },
  usps_priority: { carrier: 'USPS', service: 'Priority' },
  usps_priority_express: { carrier: 'USPS', service: 'Express' },
  ups_next_day_air: { carrier: 'UPS', service: 'NextDayAir' },
};

const EASYPOST_CARRIER: Record<Carrier, string> = { usps: 'USPS', ups: 'UPS' };

/** EasyPost's label formats, and how each file begins. */
const FILE_FORMAT: Record<LabelFormat, { name: 'PDF' | 'ZPL'; begins: (text: string) => boolean }> =
  {
    pdf: { name: 'PDF', begins: (text) => text.startsWith('%PDF-') },
    zpl: { name: 'ZPL', begins: (text) => /^\s*[~^]/.test(text) },
  };

/** A tracking number as our packages hold one. */
const TRACKING_NUMBER = /^[0-9A-Z]{18,34}$/;

/** Trackers asked for at once: EasyPost's rate limit is per second. */
const TRACKERS_AT_ONCE = 4;

/** EasyPost weighs parcels in ounces, to a tenth. */
const ouncesOf = (grams: number) => Math.ceil((grams / 28.349523125) * 10) / 10;

const addressOf = (address: LabelAddress) => ({
  name: address.name,
  company: address.company ?? null,
  street1: address.line1,
  street2: address.line2 ?? null,
  city: address.city,
  state: address.state,
  zip: address.zip,
  country: 'US',
});

/** What an EasyPost error says: its message and each field's, as the client read them. */
type EasyPostError = {
  statusCode?: number;
  message?: string;
  errors?: readonly { field?: string; message?: string }[] | null;
};

const wordsOf = (error: EasyPostError) =>
  [
    error.message,
    ...(error.errors ?? []).map((field) => [field.field, field.message].filter(Boolean).join(': ')),
  ]
    .filter(Boolean)
    .join('; ');

/**
 * EasyPost's refusal as our error: what it found wrong in the request is the carrier's refusal
 * (422, its words); its key refused, its payment refused, it failing or not answering is a 502.
 */
function carrierErrorOf(error: unknown, doing: string): Error {
  const failed = error as EasyPostError;
  const status = failed.statusCode;
  if (status === 400 || status === 404 || status === 422) {
    return new CarrierRefusal(`EasyPost refused ${doing}: ${wordsOf(failed)}`);
  }
  if (status === 401 || status === 403) {
    return new CarrierUnavailable(
      `EasyPost refused the API key when asked for ${doing}: set a valid EASYPOST_API_KEY.`,
    );
  }
  if (status === 402) {
    return new CarrierUnavailable(`EasyPost refused the payment for ${doing}: ${wordsOf(failed)}`);
  }
  return new CarrierUnavailable(
    `EasyPost did not answer when asked for ${doing}${status ? ` (HTTP ${status})` : ''}; try again.`,
  );
}

/** One call to EasyPost, its failure translated. */
async function asking<T>(doing: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw carrierErrorOf(error, doing);
  }
}

const optionalText = z.optional(z.nullable(z.string()));

/** What tracking reads of an EasyPost Tracker, as its API and its webhook's Events carry it. */
export const easyPostTrackerSchema = z.object({
  object: z.literal('Tracker', 'The Event of a tracker carries a Tracker.'),
  tracking_code: z.string('A tracker has its tracking code.'),
  tracking_details: z._default(
    z.array(
      z.object({
        status: z.string('A tracking detail has its status.'),
        message: optionalText,
        description: optionalText,
        datetime: z.string('A tracking detail has its time.'),
        tracking_location: z.optional(
          z.nullable(z.object({ city: optionalText, state: optionalText, zip: optionalText })),
        ),
      }),
    ),
    [],
  ),
});
export type EasyPostTracker = z.output<typeof easyPostTrackerSchema>;
type TrackingDetail = EasyPostTracker['tracking_details'][number];

/** A tracking event's place: "DALLAS, TX 75247". */
const placeOf = (place: TrackingDetail['tracking_location']) => {
  if (!place) return null;
  const cityState = [place.city, place.state].filter(Boolean).join(', ');
  const text = [cityState, place.zip].filter(Boolean).join(' ');
  return text === '' ? null : text;
};

/** A tracker's events as the carrier reported them (EasyPost's status, its message). */
export function trackerEvents(
  tracker: Pick<EasyPostTracker, 'tracking_code' | 'tracking_details'>,
) {
  return tracker.tracking_details.map((detail): CarrierEvent => ({
    trackingNumber: tracker.tracking_code,
    status: detail.status,
    description: detail.message || detail.description || null,
    occurredAt: new Date(detail.datetime),
    location: placeOf(detail.tracking_location),
  }));
}

/** The URL of a bought label's file in a format, when EasyPost has made it. */
function labelUrlOf(label: IPostageLabel, format: LabelFormat): string | null {
  const url = format === 'pdf' ? label.label_pdf_url : label.label_zpl_url;
  if (url) return url;
  const type = (label.label_file_type ?? '').toLowerCase();
  return type.endsWith(format) ? label.label_url : null;
}

export function easyPostCarrier(settings: EasyPostSettings): CarrierAdapter {
  const client: Client = new EasyPostClient(settings.apiKey, {
    ...(settings.baseUrl && { baseUrl: settings.baseUrl }),
  });

  /** The shipment of a label by its reference (EasyPost finds shipments by it); null for none. */
  async function shipmentOf(reference: string): Promise<IShipment | null> {
    try {
      return await client.Shipment.retrieve(encodeURIComponent(reference));
    } catch (error) {
      if ((error as EasyPostError).statusCode === 404) return null;
      throw carrierErrorOf(error, `shipment ${reference}`);
    }
  }

  async function buy(shipment: IShipment, request: LabelRequest): Promise<IShipment> {
    const wanted = EASYPOST_SERVICE[request.service];
    const rate = (shipment.rates ?? []).find(
      (offer) => offer.carrier === wanted.carrier && offer.service === wanted.service,
    );
    if (!rate) {
      const said = (shipment.messages ?? []).map((message) => message.message).join('; ');
      throw new CarrierRefusal(
        `EasyPost has no ${SHIPPING_SERVICE_INFO[request.service].name} rate for order ` +
          `${request.reference}${said ? `: ${said}` : ''}.`,
      );
    }
    return asking(`the label of order ${request.reference}`, () =>
      client.Shipment.buy(shipment.id, rate.id),
    );
  }

  /** The label's file in the format asked for: EasyPost converts it when it has another. */
  async function documentOf(shipment: IShipment, format: LabelFormat): Promise<LabelFile> {
    const { name, begins } = FILE_FORMAT[format];
    let url = labelUrlOf(shipment.postage_label, format);
    if (!url) {
      const converted = await asking(`a ${name} of label ${shipment.tracking_code}`, () =>
        client.Shipment.convertLabelFormat(shipment.id, name),
      );
      url = labelUrlOf(converted.postage_label, format);
    }
    const file = url
      ? await fetch(url, { signal: AbortSignal.timeout(30_000) }).catch(() => null)
      : null;
    const content = file?.ok ? new Uint8Array(await file.arrayBuffer()) : null;
    if (!content || !begins(Buffer.from(content.subarray(0, 16)).toString('latin1'))) {
      throw new CarrierUnavailable(
        `EasyPost's ${name} file of label ${shipment.tracking_code} could not be read; try again.`,
      );
    }
    return { format, content };
  }

  return {
    /**
     * The shipment is named by the label's idempotency key, so a retry finds what the first try
     * created (and bought) instead of buying a second label.
     */
    async createLabel(request) {
      const { carrier } = SHIPPING_SERVICE_INFO[request.service];
      const format = request.format ?? 'pdf';
      let shipment =
        (await shipmentOf(request.idempotencyKey)) ??
        (await asking(`the shipment of order ${request.reference}`, () =>
          client.Shipment.create({
            reference: request.idempotencyKey,
            to_address: addressOf(request.shipTo),
            from_address: addressOf(request.shipFrom),
            parcel: { weight: ouncesOf(request.weightG) },
            options: {
              label_format: FILE_FORMAT[format].name,
              label_size: '4x6',
              print_custom_1: request.reference,
            },
          }),
        ));
      if (!shipment.postage_label) shipment = await buy(shipment, request);
      const trackingNumber = shipment.tracking_code;
      if (!TRACKING_NUMBER.test(trackingNumber ?? '')) {
        throw new CarrierUnavailable(
          `EasyPost sold the label of order ${request.reference} without a tracking number we ` +
            `can read (${String(trackingNumber)}); void shipment ${shipment.id} in EasyPost.`,
        );
      }
      return {
        carrier,
        trackingNumber,
        carrierRef: shipment.id,
        document: await documentOf(shipment, format),
      };
    },

    /** A refund asked for or made already counts; a label bought elsewhere has none to ask. */
    async voidLabel(label) {
      if (!label.carrierRef) return true;
      const id = label.carrierRef;
      try {
        const refunded = await client.Shipment.refund(id);
        return refunded.refund_status !== 'rejected';
      } catch (error) {
        const refusal = carrierErrorOf(error, `the void of label ${label.trackingNumber}`);
        if (!(refusal instanceof CarrierRefusal)) throw refusal;
        const shipment = await asking(`shipment ${id}`, () => client.Shipment.retrieve(id));
        if (shipment.refund_status === 'submitted' || shipment.refund_status === 'refunded') {
          return true;
        }
        throw refusal;
      }
    },

    /** EasyPost sells no intercept of a parcel on its way (its carriers' own services do). */
    intercept: (label) =>
      Promise.resolve({
        accepted: false,
        message:
          `EasyPost offers no intercept: parcel ${label.trackingNumber} must come back ` +
          'as a return.',
      }),

    /**
     * Each parcel's tracker: the one EasyPost keeps (a label it sold has one), else a new one
     * (which EasyPost may charge for, so it is made only when none is found).
     */
    async track(parcels) {
      const events: CarrierEvent[] = [];
      for (let start = 0; start < parcels.length; start += TRACKERS_AT_ONCE) {
        const group = parcels.slice(start, start + TRACKERS_AT_ONCE);
        const answers = await Promise.all(
          group.map(async ({ carrier, trackingNumber }) => {
            const query = { tracking_code: trackingNumber, carrier: EASYPOST_CARRIER[carrier] };
            const listed = await asking(`the trackers of ${trackingNumber}`, () =>
              client.Tracker.all({ ...query, page_size: 5 }),
            );
            if (listed.trackers.length > 0) return listed.trackers;
            return [
              await asking(`a tracker for ${trackingNumber}`, () => client.Tracker.create(query)),
            ];
          }),
        );
        events.push(...answers.flat().flatMap(trackerEvents));
      }
      return events;
    },
  };
}

/** The client's signature check needs a client, not a key: it asks nothing of EasyPost. */
const signatures = new EasyPostClient('', { useProxy: true }).Utils;

/**
 * The Event of an EasyPost webhook when its `X-Hmac-Signature` is the body's under our secret
 * (EasyPost's own check); null for a missing or wrong signature.
 */
export function signedEasyPostEvent(
  body: Buffer,
  headers: Record<string, unknown>,
  secret: string,
): unknown {
  try {
    return signatures.validateWebhook(body, headers, secret);
  } catch {
    return null;
  }
}
