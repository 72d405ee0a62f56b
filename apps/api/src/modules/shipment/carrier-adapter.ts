import {
  SHIPPING_SERVICE_INFO,
  upsCheckDigit,
  uspsCheckDigit,
  type Carrier,
  type LabelFormat,
  type ShippingService,
} from '@inventory/contract';
import { ApiError, ValidationError } from '../../http/errors.js';
import type { LabelFile } from '../../toolkit/documents/label.js';

/**
 * What the label desk asks of a carrier (DOMAIN.md 4.14): buy a label for a parcel and void it
 * before it is scanned out; and what tracking asks (4.16): the events of parcels on their way.
 * The offline adapter is built in; EasyPost's (`easypost-carrier.ts`) implements the same calls,
 * chosen by the server's settings (`config.carrier`).
 */

/** Where a parcel goes or comes from, as a label prints it. */
export type LabelAddress = {
  readonly name: string;
  readonly company?: string | null;
  readonly line1: string;
  readonly line2?: string | null;
  readonly city: string;
  readonly state: string;
  readonly zip: string;
};

export type LabelRequest = {
  /**
   * The same for every retry of one label (the order and how many labels it had before), so a
   * carrier that is asked again answers the label it sold, never a second one.
   */
  readonly idempotencyKey: string;
  readonly orderId: number;
  /** Labels the order had before this one (voided): 0 for its first. */
  readonly generation: number;
  readonly service: ShippingService;
  readonly weightG: number;
  readonly shipFrom: LabelAddress;
  readonly shipTo: LabelAddress;
  /** What the label names the parcel by: the order number. */
  readonly reference: string;
  /** The file the label desk prints (the batch's); a carrier that sends label files sends PDF by default. */
  readonly format?: LabelFormat;
};

export type PurchasedLabel = {
  readonly carrier: Carrier;
  readonly trackingNumber: string;
  /** The carrier's id of what it sold (EasyPost's shipment), which its void names. */
  readonly carrierRef?: string;
  /** The carrier's own label file; without it the label desk prints our 4x6 rendering. */
  readonly document?: LabelFile;
};

/**
 * The carrier refused what it was asked (an address it cannot deliver to, a service it has no rate
 * for): its own words, a 422, or the order's refusal in a label step.
 */
export class CarrierRefusal extends ValidationError {
  constructor(readonly carrierMessage: string) {
    super({ _: [carrierMessage] });
  }
}

/** The carrier did not answer, or not as it should (its key refused, down, a 5xx): a 502. */
export class CarrierUnavailable extends ApiError {
  constructor(message: string) {
    super(502, message);
  }
}

/** A parcel whose events are asked for. */
export type TrackRequest = {
  readonly carrier: Carrier;
  readonly trackingNumber: string;
  /**
   * When it left the dock. A carrier's own feed needs the number only; the offline carrier plays
   * the parcel's journey from this moment.
   */
  readonly shippedAt: Date;
};

/** One event of a parcel as the carrier reports it. */
export type CarrierEvent = {
  readonly trackingNumber: string;
  /** The carrier's code or words. */
  readonly status: string;
  readonly description: string | null;
  readonly occurredAt: Date;
  readonly location: string | null;
};

/**
 * A carrier's answer to an intercept of a parcel on its way (DOMAIN.md 4.16 cancel): taken, the
 * parcel is sent back to us; or not offered, and the parcel must come back as a return.
 */
export type InterceptAnswer = { readonly accepted: boolean; readonly message: string };

export interface CarrierAdapter {
  createLabel(request: LabelRequest): Promise<PurchasedLabel>;
  /** True when the carrier took the void (or had nothing to void). */
  voidLabel(label: PurchasedLabel): Promise<boolean>;
  /** Asks the carrier to send a parcel on its way back to the shipper. */
  intercept(label: PurchasedLabel): Promise<InterceptAnswer>;
  /** Every event the carrier has of these parcels so far, in any order. */
  track(parcels: readonly TrackRequest[]): Promise<CarrierEvent[]>;
}

/** The shipper's numbers the offline adapter writes into its tracking numbers. */
export type OfflineShipper = {
  /** USPS Mailer ID, 6 digits. */
  readonly uspsMailerId: string;
  /** UPS shipper number, 6 characters. */
  readonly upsShipperNumber: string;
};

/** USPS service type codes of the IMpb, per service. */
const USPS_SERVICE_TYPE: Partial<Record<ShippingService, string>> = {
  usps_ground_advantage: '001',
  usps_priority: '055',
  usps_priority_express: '701',
};

/** UPS service codes of the 1Z number. */
const UPS_SERVICE_CODE: Partial<Record<ShippingService, string>> = {
  ups_next_day_air: '01',
};

/** The order and its label's generation as one number: the tracking number's serial. */
const serialOf = (request: Pick<LabelRequest, 'orderId' | 'generation'>) =>
  BigInt(request.orderId) * 100n + BigInt(request.generation % 100);

/** A USPS IMpb number: 94, service type, Mailer ID, a 10-digit serial, the mod-10 check digit. */
export function uspsTrackingNumber(serviceType: string, mailerId: string, serial: bigint): string {
  const payload = `94${serviceType}${mailerId}${(serial % 10_000_000_000n).toString().padStart(10, '0')}`;
  return `${payload}${uspsCheckDigit(payload)}`;
}

/** A UPS number: 1Z, shipper number, service code, a 7-digit reference, the check digit. */
export function upsTrackingNumber(shipper: string, serviceCode: string, serial: bigint): string {
  const payload = `${shipper}${serviceCode}${(serial % 10_000_000n).toString().padStart(7, '0')}`;
  return `1Z${payload}${upsCheckDigit(payload)}`;
}

const HOUR_MS = 3_600_000;

/** A step of an offline journey: hours after scan-out, the carrier's status and words. */
type JourneyStep = readonly [hours: number, status: string, description: string];

const DELIVERED: Record<Carrier, readonly JourneyStep[]> = {
  usps: [
    [3, 'Accepted at USPS Origin Facility', 'USPS is now in possession of your item'],
    [20, 'In Transit to Next Facility', 'Your item is moving through the network'],
    [44, 'Out for Delivery', 'Your item is out for delivery'],
    [50, 'Delivered, In/At Mailbox', 'Your item was delivered in or at the mailbox'],
  ],
  ups: [
    [3, 'P', 'Pickup Scan'],
    [20, 'I', 'Departed from Facility'],
    [44, 'I', 'Out For Delivery Today'],
    [50, 'D', 'DELIVERED'],
  ],
};

const RETURNED: Record<Carrier, readonly JourneyStep[]> = {
  usps: [
    ...DELIVERED.usps.slice(0, 3),
    [50, 'Notice Left (No Authorized Recipient Available)', 'We attempted to deliver your item'],
    [74, 'Available for Pickup', 'Your item is being held at the Post Office'],
    [170, 'Return to Sender', 'Your item was unclaimed and is being returned to the sender'],
  ],
  ups: [
    ...DELIVERED.ups.slice(0, 3),
    [50, 'X', 'The receiver was not available for delivery'],
    [170, 'RS', 'Returned to shipper'],
  ],
};

/** One parcel in ten comes back: those whose tracking number's characters add up to a ten. */
const comesBack = (trackingNumber: string) =>
  [...trackingNumber].reduce((sum, char) => sum + char.charCodeAt(0), 0) % 10 === 0;

/**
 * The offline carrier's whole journey of a parcel: accepted, in transit, out for delivery and
 * delivered within about two days of scan-out; one parcel in ten is not collected and returns to
 * its sender a week later. Made from the number and the scan-out time alone.
 */
export function offlineJourney(parcel: TrackRequest): CarrierEvent[] {
  const steps = (comesBack(parcel.trackingNumber) ? RETURNED : DELIVERED)[parcel.carrier];
  return steps.map(([hours, status, description]) => ({
    trackingNumber: parcel.trackingNumber,
    status,
    description,
    occurredAt: new Date(parcel.shippedAt.getTime() + hours * HOUR_MS),
    location: null,
  }));
}

/**
 * The offline carrier: labels for trying the app and for tests, bought from nobody. Its tracking
 * numbers have the carriers' formats and check digits and follow from the order and the label's
 * generation alone, so asking again gives the same number. Its tracking answers the part of each
 * parcel's offline journey that has happened by now.
 */
export function offlineCarrier(shipper: OfflineShipper): CarrierAdapter {
  return {
    createLabel(request) {
      const { carrier } = SHIPPING_SERVICE_INFO[request.service];
      const serial = serialOf(request);
      const trackingNumber =
        carrier === 'usps'
          ? uspsTrackingNumber(USPS_SERVICE_TYPE[request.service]!, shipper.uspsMailerId, serial)
          : upsTrackingNumber(shipper.upsShipperNumber, UPS_SERVICE_CODE[request.service]!, serial);
      return Promise.resolve({ carrier, trackingNumber });
    },
    voidLabel: () => Promise.resolve(true),
    intercept: (label) =>
      Promise.resolve({
        accepted: true,
        message: `The carrier will return parcel ${label.trackingNumber} to the shipper.`,
      }),
    track(parcels) {
      const now = Date.now();
      return Promise.resolve(
        parcels.flatMap((parcel) =>
          offlineJourney(parcel).filter((event) => event.occurredAt.getTime() <= now),
        ),
      );
    },
  };
}
