import { SHIPPING_SERVICE_INFO, type LabelFormat, type ShippingService } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { ConflictError, NotFoundError } from '../../http/errors.js';
import type { Acting } from '../../http/principal.js';
import type { Label, PrintedLabel } from '../../toolkit/documents/label.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { shippingSettings, weightText } from '../shipment/index.js';

/**
 * An RMA's return label (DOMAIN.md 5.3 step 1): the carrier's own file when it sent one, else our
 * 4x6 rendering, addressed to the warehouse from the customer, with the RMA number as its second
 * barcode so that receiving can scan either.
 */

type ReturnLabelFacts = {
  number: string;
  service: ShippingService | null;
  tracking_number: string | null;
  format: LabelFormat | null;
  content: Uint8Array | null;
  created_on: string;
  devices: number;
  from_name: string;
  from_city: string;
  from_state: string;
  from_zip: string;
};

const factsOf = async (db: Queryable, rmaId: number) => {
  const [facts] = await db.query<ReturnLabelFacts>(
    `SELECT r.number, rl.service, rl.tracking_number, rl.format, rl.content,
       to_char(rl.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS created_on,
       (SELECT count(*)::int FROM rma_lines l WHERE l.rma_id = r.id) AS devices,
       t.name AS from_name, t.city AS from_city, t.state AS from_state, t.zip AS from_zip
     FROM rmas r
     LEFT JOIN rma_return_labels rl ON rl.rma_id = r.id
     JOIN order_ship_to t ON t.order_id = r.order_id
     WHERE r.id = $1`,
    [rmaId],
  );
  if (!facts) throw new NotFoundError(`There is no RMA with id ${rmaId}.`);
  return facts;
};

/** The facts of an RMA that has its label: 409 before it is authorised. */
async function labelledFacts(db: Queryable, rmaId: number) {
  const facts = await factsOf(db, rmaId);
  const { service, tracking_number: tracking } = facts;
  if (service === null || tracking === null) {
    throw new ConflictError(`${facts.number} has no return label: authorise it first.`);
  }
  return { ...facts, service, tracking_number: tracking };
}

/** Asked for a print: 409 without a label, or in the other format than the carrier's file. */
export async function askReturnLabel(
  db: Queryable,
  { actor, meta }: Acting,
  rmaId: number,
  format: LabelFormat,
) {
  const facts = await labelledFacts(db, rmaId);
  if (facts.format !== null && facts.format !== format) {
    const theirs = facts.format.toUpperCase();
    throw new ConflictError(
      `The return label is the carrier's own ${theirs} file: print it as ${theirs}.`,
    );
  }
  await recordAudit(db, {
    ...auditActor(actor, meta),
    action: 'RMA.return_label_printed',
    entityType: 'RMA',
    entityId: rmaId,
    after: { rma: facts.number, tracking: facts.tracking_number },
  });
  return { rma_id: rmaId };
}

export async function returnLabel(db: Queryable, rmaId: number): Promise<PrintedLabel> {
  const facts = await labelledFacts(db, rmaId);
  if (facts.format !== null && facts.content !== null) {
    return { format: facts.format, content: facts.content };
  }
  const {
    ship_from: warehouse,
    default_device_weight_g,
    packaging_weight_g,
  } = await shippingSettings(db);
  const weight = facts.devices * default_device_weight_g + packaging_weight_g;
  const label: Label = {
    title: SHIPPING_SERVICE_INFO[facts.service].banner,
    barcode: facts.tracking_number,
    lines: [
      `${SHIPPING_SERVICE_INFO[facts.service].name} · RETURN`,
      `SHIP TO: ${warehouse.name}`,
      warehouse.line1,
      `${warehouse.city}, ${warehouse.state} ${warehouse.zip}`,
      `FROM: ${facts.from_name}, ${facts.from_city}, ${facts.from_state} ${facts.from_zip}`,
      `${weightText(weight)} · ${facts.devices} device(s) · ${facts.created_on}`,
      `Return ${facts.number}`,
    ],
    secondBarcode: facts.number,
  };
  return label;
}
