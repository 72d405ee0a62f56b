import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { upsTrackingNumber, uspsTrackingNumber } from './carrier-adapter.js';

/**
 * A local stand-in for EasyPost's API (v2) for the adapter's tests: it answers the calls the
 * adapter makes as EasyPost documents them (objects with `shp_`, `rate_`, `trk_` and `pl_` ids,
 * errors as `{error: {code, message, errors}}`), checks the API key (Basic auth, 401) and the
 * fields it needs (422), and serves the label files its postage labels name.
 *
 * Covered: POST /v2/shipments, GET /v2/shipments/:id (by id or reference), POST
 * /v2/shipments/:id/buy, GET /v2/shipments/:id/label, POST /v2/shipments/:id/refund, POST and GET
 * /v2/trackers, GET /labels/:file. A ship-to ZIP of 00000 fails address verification; Hawaii has
 * no UPS rate.
 */

type Json = Record<string, unknown>;
type Address = Json & { street1?: string; city?: string; state?: string; zip?: string };
type Detail = {
  object: 'TrackingDetail';
  status: string;
  status_detail: string;
  message: string;
  description: string;
  datetime: string;
  source: string;
  tracking_location: { object: 'TrackingLocation'; city: string; state: string; zip: string };
};
type Tracker = Json & { id: string; tracking_code: string; tracking_details: Detail[] };
type Shipment = Json & {
  id: string;
  reference: string | null;
  to_address: Address;
  rates: (Json & { id: string; carrier: string; service: string })[];
  postage_label: (Json & { label_pdf_url: string | null; label_zpl_url: string | null }) | null;
  tracking_code: string | null;
  refund_status: string | null;
  tracker: Tracker | null;
};

export type EasyPostStandIn = {
  /** What the adapter's `baseUrl` is set to. */
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly shipments: Map<string, Shipment>;
  readonly trackers: Map<string, Tracker>;
  /** How many labels were bought: a retry must not add one. */
  readonly purchases: () => number;
  /** The carrier's scan of a parcel: an event on its tracker. */
  scan(trackingCode: string, status: string, message: string, at: Date): void;
  /**
   * A later request to `route` (`POST /v2/shipments/:id/buy`) answers `status`: the next one,
   * or the one after `passing` more.
   */
  failNext(route: string, status: number, passing?: number): void;
  close(): Promise<void>;
};

const idOf = (prefix: string) => `${prefix}_${randomBytes(16).toString('hex')}`;
const now = () => new Date().toISOString();

const error = (code: string, message: string, errors: Json[] = []) => ({
  error: { code, message, errors },
});

const RATES = [
  { carrier: 'USPS', service: 'GroundAdvantage', rate: '5.93' },
  { carrier: 'USPS', service: 'Priority', rate: '9.35' },
  { carrier: 'USPS', service: 'Express', rate: '31.25' },
  { carrier: 'UPS', service: 'NextDayAir', rate: '48.10' },
];

/** A carrier's 4x6 label as a PDF page with the tracking code on it. */
async function labelPdf(trackingCode: string) {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([288, 432]).drawText(`EASYPOST TEST LABEL ${trackingCode}`, { x: 10, y: 400, font });
  return Buffer.from(await pdf.save());
}

const labelZpl = (trackingCode: string) =>
  `^XA^FO50,50^A0N,40,40^FDEASYPOST TEST LABEL^FS^FO50,120^BCN,200,Y,N,N^FD${trackingCode}^FS^XZ\n`;

async function bodyOf(request: IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? {} : (JSON.parse(text) as Json);
}

/** The fields of an address EasyPost needs, by the path of each blank one. */
const blanks = (address: Address | undefined, path: string) =>
  (['street1', 'city', 'state', 'zip'] as const)
    .filter((field) => !address?.[field])
    .map((field) => ({ field: `${path}.${field}`, message: 'cannot be blank' }));

export async function startEasyPostStandIn(apiKey = 'EZTK_stand_in_key'): Promise<EasyPostStandIn> {
  const shipments = new Map<string, Shipment>();
  const trackers = new Map<string, Tracker>();
  const files = new Map<string, { type: string; content: Buffer }>();
  const failures = new Map<string, { status: number; passing: number }>();
  let purchases = 0;
  let serial = 1_000;
  let origin = '';

  const trackerFor = (trackingCode: string, carrier: string) => {
    const found = [...trackers.values()].find((tracker) => tracker.tracking_code === trackingCode);
    if (found) return found;
    const tracker: Tracker = {
      id: idOf('trk'),
      object: 'Tracker',
      mode: 'test',
      tracking_code: trackingCode,
      carrier,
      status: 'unknown',
      tracking_details: [],
      created_at: now(),
      updated_at: now(),
    };
    trackers.set(tracker.id, tracker);
    return tracker;
  };

  const shipmentOf = (key: string) =>
    shipments.get(key) ?? [...shipments.values()].find((shipment) => shipment.reference === key);

  async function createShipment(body: Json): Promise<[number, unknown]> {
    const given = (body.shipment ?? {}) as Json & {
      to_address?: Address;
      from_address?: Address;
      parcel?: { weight?: number };
      reference?: string;
    };
    const missing = [
      ...blanks(given.to_address, 'shipment.to_address'),
      ...blanks(given.from_address, 'shipment.from_address'),
      ...(Number(given.parcel?.weight) > 0
        ? []
        : [{ field: 'shipment.parcel.weight', message: 'must be greater than 0' }]),
    ];
    if (missing.length > 0) {
      return [422, error('PARAMETER.REQUIRED', 'Missing required parameter.', missing)];
    }
    if (given.to_address!.zip === '00000') {
      return [
        422,
        error('ADDRESS.VERIFY.FAILURE', 'Unable to verify address.', [
          { field: 'address', message: 'Address not found' },
        ]),
      ];
    }
    const id = idOf('shp');
    const rates = RATES.filter(
      (offer) => !(offer.carrier === 'UPS' && given.to_address!.state === 'HI'),
    ).map((offer) => ({
      id: idOf('rate'),
      object: 'Rate',
      mode: 'test',
      shipment_id: id,
      currency: 'USD',
      ...offer,
    }));
    const shipment: Shipment = {
      id,
      object: 'Shipment',
      mode: 'test',
      reference: given.reference ?? null,
      to_address: { id: idOf('adr'), object: 'Address', ...given.to_address },
      from_address: { id: idOf('adr'), object: 'Address', ...given.from_address },
      parcel: { id: idOf('prcl'), object: 'Parcel', ...given.parcel },
      options: given.options ?? {},
      rates,
      selected_rate: null,
      postage_label: null,
      tracking_code: null,
      refund_status: null,
      tracker: null,
      messages: [],
      status: 'unknown',
      created_at: now(),
      updated_at: now(),
    };
    shipments.set(id, shipment);
    return [201, shipment];
  }

  async function buy(shipment: Shipment, body: Json): Promise<[number, unknown]> {
    const rateId = (body.rate as { id?: string } | undefined)?.id;
    const rate = shipment.rates.find((offer) => offer.id === rateId);
    if (!rate) return [422, error('SHIPMENT.RATE.INVALID', 'The rate is not of this shipment.')];
    if (shipment.postage_label) {
      return [422, error('SHIPMENT.POSTAGE.EXISTS', 'The shipment already has postage.')];
    }
    serial += 1;
    const trackingCode =
      rate.carrier === 'UPS'
        ? upsTrackingNumber('EZ1234', '01', BigInt(serial))
        : uspsTrackingNumber('001', '999999', BigInt(serial));
    const format = String((shipment.options as Json).label_format ?? 'PNG').toUpperCase();
    const labelId = idOf('pl');
    const pdf = `${origin}/labels/${labelId}.pdf`;
    const zpl = `${origin}/labels/${labelId}.zpl`;
    files.set(`${labelId}.pdf`, { type: 'application/pdf', content: await labelPdf(trackingCode) });
    files.set(`${labelId}.zpl`, {
      type: 'application/zpl',
      content: Buffer.from(labelZpl(trackingCode)),
    });
    purchases += 1;
    Object.assign(shipment, {
      selected_rate: rate,
      tracking_code: trackingCode,
      status: 'pre_transit',
      tracker: trackerFor(trackingCode, rate.carrier),
      postage_label: {
        id: labelId,
        object: 'PostageLabel',
        label_date: now(),
        label_resolution: 300,
        label_size: '4x6',
        label_type: 'default',
        label_file_type: format === 'ZPL' ? 'application/zpl' : 'application/pdf',
        label_url: format === 'ZPL' ? zpl : pdf,
        label_pdf_url: format === 'ZPL' ? null : pdf,
        label_zpl_url: format === 'ZPL' ? zpl : null,
        created_at: now(),
        updated_at: now(),
      },
      updated_at: now(),
    });
    return [200, shipment];
  }

  async function answer(request: IncomingMessage): Promise<[number, unknown] | Buffer> {
    const url = new URL(request.url ?? '/', origin);
    const method = request.method ?? 'GET';
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] === 'labels') {
      const file = files.get(parts[1] ?? '');
      return file ? file.content : [404, error('NOT_FOUND', 'No such label file.')];
    }
    const route = `${method} /${parts.map((part, n) => (n === 2 ? ':id' : part)).join('/')}`;
    const failure = failures.get(route);
    if (failure && failure.passing-- === 0) {
      failures.delete(route);
      return [failure.status, error('INTERNAL_SERVER_ERROR', 'Something went wrong on our end.')];
    }
    const [user] = Buffer.from(
      (request.headers.authorization ?? '').replace(/^Basic /, ''),
      'base64',
    )
      .toString('utf8')
      .split(':');
    if (user !== apiKey) {
      return [401, error('APIKEY.INACTIVE', 'This api key is no longer active.')];
    }
    const body = method === 'POST' ? await bodyOf(request) : {};
    if (route === 'POST /v2/shipments') return createShipment(body);
    if (route === 'POST /v2/trackers') {
      const given = (body.tracker ?? {}) as { tracking_code?: string; carrier?: string };
      if (!given.tracking_code) {
        return [
          422,
          error('PARAMETER.REQUIRED', 'Missing required parameter.', [
            { field: 'tracker.tracking_code', message: 'cannot be blank' },
          ]),
        ];
      }
      return [201, trackerFor(given.tracking_code, given.carrier ?? 'USPS')];
    }
    if (route === 'GET /v2/trackers') {
      const code = url.searchParams.get('tracking_code');
      const listed = [...trackers.values()].filter(
        (tracker) => code === null || tracker.tracking_code === code,
      );
      return [200, { trackers: listed, has_more: false }];
    }
    const shipment = shipmentOf(decodeURIComponent(parts[2] ?? ''));
    if (parts[1] === 'shipments' && !shipment) {
      return [404, error('NOT_FOUND', 'The requested resource could not be found.')];
    }
    if (route === 'GET /v2/shipments/:id') return [200, shipment];
    if (route === 'POST /v2/shipments/:id/buy') return buy(shipment!, body);
    if (route === 'GET /v2/shipments/:id/label') {
      const label = shipment!.postage_label;
      if (!label) return [422, error('SHIPMENT.POSTAGE.REQUIRED', 'The shipment has no postage.')];
      const wanted = url.searchParams.get('file_format')?.toLowerCase();
      const file = `${String(label.id)}.${wanted}`;
      if (!files.has(file)) return [422, error('PARAMETER.INVALID', 'Unknown file_format.')];
      label[wanted === 'zpl' ? 'label_zpl_url' : 'label_pdf_url'] = `${origin}/labels/${file}`;
      return [200, shipment];
    }
    if (route === 'POST /v2/shipments/:id/refund') {
      if (!shipment!.postage_label || shipment!.refund_status) {
        return [
          422,
          error('SHIPMENT.REFUND.UNAVAILABLE', 'This shipment cannot be refunded (again).'),
        ];
      }
      shipment!.refund_status = 'submitted';
      return [200, shipment];
    }
    return [404, error('NOT_FOUND', `No route ${route}.`)];
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    answer(request).then(
      (answered) => {
        if (Buffer.isBuffer(answered)) {
          response.writeHead(200).end(answered);
          return;
        }
        const [status, json] = answered;
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(json));
      },
      (failed: unknown) => {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify(error('INTERNAL_SERVER_ERROR', String(failed))));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl: `${origin}/v2/`,
    apiKey,
    shipments,
    trackers,
    purchases: () => purchases,
    scan(trackingCode, status, message, at) {
      const tracker = trackerFor(trackingCode, 'USPS');
      tracker.status = status;
      tracker.tracking_details.push({
        object: 'TrackingDetail',
        status,
        status_detail: 'unknown',
        message,
        description: '',
        datetime: at.toISOString(),
        source: 'USPS',
        tracking_location: {
          object: 'TrackingLocation',
          city: 'DALLAS',
          state: 'TX',
          zip: '75247',
        },
      });
    },
    failNext(route, status, passing = 0) {
      failures.set(route, { status, passing });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The secret the EasyPost test app's webhook is signed with. */
export const WEBHOOK_SECRET = 'whsec-stand-in';

/** A test app whose carrier is EasyPost, answered by a stand-in of its own. */
export async function easyPostTestApp(): Promise<{ t: TestApp; standIn: EasyPostStandIn }> {
  const standIn = await startEasyPostStandIn();
  const t = await createTestApp({
    environment: {
      CARRIER_ADAPTER: 'easypost',
      EASYPOST_API_KEY: standIn.apiKey,
      EASYPOST_BASE_URL: standIn.baseUrl,
      EASYPOST_WEBHOOK_SECRET: WEBHOOK_SECRET,
    },
  });
  return {
    t: { ...t, close: () => t.close().then(() => standIn.close()) },
    standIn,
  };
}
