// Issue 16's gates (selling): what a bench server adds for them, and their floors on the orders
// table (QUALITY.md: F1 one committed order row, F2 a keyset page of 50 order rows).
import { createHash } from 'node:crypto';
import { PRICE_STATE_CODES } from '@inventory/contract';

/** The bench client carrier's key, as its system would send it (CLIENT_CARRIER_KEY_PATTERN). */
export const BENCH_CARRIER_KEY = `ck_${'Bench0'.repeat(7)}x`;
const PRICE_ROWS = 100_000;
/** The variants the carrier order gate's requests take in turn. */
const ORDER_SKUS = 20;
/** The price keys' states: every state and territory a price may name, and empty (every state). */
const STATES = [...PRICE_STATE_CODES, ''];
const PROGRAMMES = ['lifeline', 'tribal', 'prepaid'];

/**
 * The carrier order gate's stock: a client carrier of its own with an API key, a Lifeline price
 * of each model in every state, and a live carrier listing (backorder allowed, so no run sells
 * one out) of each of the ORDER_SKUS generated variants with the most sellable stock, which the
 * requests take in turn (a carrier orders many phones, not one). The order floor's subscriber.
 */
export async function createSellingStock(db) {
  const [carrier] = await db.query(
    "INSERT INTO vendors (name, type) VALUES ('Bench Carrier', 'carrier-client') RETURNING id",
  );
  await db.query(
    `INSERT INTO client_carrier_api_keys (client_carrier_id, name, key_prefix, key_hash)
     VALUES ($1, 'bench', left($2, 8), $3)`,
    [carrier.id, BENCH_CARRIER_KEY, createHash('sha256').update(BENCH_CARRIER_KEY).digest('hex')],
  );
  const variants = await db.query(
    `SELECT * FROM (
       SELECT v.id, v.sku, p.model_id, pts_sellable_available(v.id, NULL, NULL) AS available
       FROM product_variants v JOIN products p ON p.id = v.product_id) sellable
     WHERE available > 0 ORDER BY available DESC, id LIMIT ${ORDER_SKUS}`,
  );
  await db.query(
    `INSERT INTO gov_plan_prices (carrier_id, programme, state, model_id, version,
       device_price_cents, plan_name, data_gb, effective_from)
     SELECT DISTINCT $1::bigint, 'lifeline', NULL::text, model_id, 1, 1001, 'Bench unlimited',
       4.5, DATE '2020-01-01'
     FROM unnest($2::bigint[]) AS m (model_id)`,
    [carrier.id, variants.map((variant) => variant.model_id)],
  );
  await listOnCarrierChannel(
    db,
    variants.map((variant) => variant.id),
  );
  const [subscriber] = await db.query('SELECT id, client_carrier_id FROM subscribers LIMIT 1');
  return {
    carrierOrder: {
      skus: variants.map((variant) => variant.sku),
      available: Math.min(...variants.map((variant) => Number(variant.available))),
    },
    orderFloor: { subscriberId: subscriber.id, carrierId: subscriber.client_carrier_id },
  };
}

/**
 * The variants live on the carrier channel without limit. The generated catalogue may list some
 * of them there already (one listing per sellable and channel): those are made so too.
 */
export async function listOnCarrierChannel(db, variantIds) {
  await db.query(
    `INSERT INTO pts_listings (variant_id, channel, qty_pushed, price_cents, status, allow_backorder)
     SELECT id, 'carrier', 1000000, 0, 'live', true FROM unnest($1::bigint[]) AS v (id)
     ON CONFLICT DO NOTHING`,
    [variantIds],
  );
  await db.query(
    `UPDATE pts_listings SET status = 'live', allow_backorder = true, starts_at = NULL,
       ends_at = NULL, qty_pushed = qty_reserved + qty_sold + 1000000
     WHERE channel = 'carrier' AND variant_id = ANY ($1::bigint[])`,
    [variantIds],
  );
}

/**
 * F1 `POST /order`: one committed order row (a fresh reference each time, through the table's
 * own triggers: number, business day, the daily counts) and F2 `GET /orders`: the order list's
 * first page by its default order, own columns only.
 */
export function addOrderFloors(server, db, { orderFloor }) {
  let next = 0;
  server.post('/order', async () => {
    next += 1;
    const [row] = await db.query(
      `INSERT INTO orders (source, fulfilment_type, client_carrier_id, program, subscriber_id,
         external_ref)
       VALUES ('carrier_api', 'new_lifeline', $1, 'lifeline', $2, $3) RETURNING id`,
      [orderFloor.carrierId, orderFloor.subscriberId, `F1-${process.pid}-${next}`],
    );
    return row;
  });
  const nullable = (type) => ({ type: [type, 'null'] });
  const order = {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      number: { type: 'string' },
      source: { type: 'string' },
      fulfilment_type: { type: 'string' },
      client_carrier_id: nullable('integer'),
      program: nullable('string'),
      status: { type: 'string' },
      hold_reason: nullable('string'),
      sla_due_at: nullable('string'),
      external_ref: nullable('string'),
      total_cents: { type: 'integer' },
      created_at: { type: 'string' },
      shipped_at: nullable('string'),
    },
  };
  server.get(
    '/orders',
    {
      schema: {
        response: {
          200: { type: 'object', properties: { data: { type: 'array', items: order } } },
        },
      },
    },
    async () => ({
      data: await db.query(
        `SELECT id, number, source, fulfilment_type, client_carrier_id, program, status,
           hold_reason, sla_due_at::text, external_ref, total_cents, created_at::text,
           shipped_at::text
         FROM orders ORDER BY id DESC LIMIT 50`,
      ),
    }),
  );
}

/** The price import gate's rows: new keys of two carriers of their own, starting next month. */
async function priceRows(db) {
  const carriers = await db.query(
    `INSERT INTO vendors (name, type)
     VALUES ('Bench Price Carrier A', 'carrier-client'), ('Bench Price Carrier B', 'carrier-client')
     ON CONFLICT DO NOTHING RETURNING id, name`,
  );
  const models = await db.query(
    `SELECT m.id, b.name || ' ' || m.name AS label FROM device_models m
     JOIN brands b ON b.id = m.brand_id WHERE m.name LIKE 'Model %' ORDER BY m.id`,
  );
  const [{ day }] = await db.query('SELECT (plan_price_today() + 30)::text AS day');
  const rows = [];
  for (const carrier of carriers) {
    for (const programme of PROGRAMMES) {
      for (const state of STATES) {
        for (const model of models) {
          if (rows.length < PRICE_ROWS) rows.push({ carrier, programme, state, model });
        }
      }
    }
  }
  const csv = [
    'Carrier,Programme,State,Model,Device price,Plan,Data (GB),Minutes,Effective from',
    ...rows.map(
      (r) =>
        `${r.carrier.name},${r.programme},${r.state},${r.model.label},10.01,Bench plan,4.5,1000,${day}`,
    ),
  ].join('\n');
  return { carriers, rows, csv, day };
}

/**
 * B against the app's price import: a raw bulk insert of the same 100,000 price versions (one
 * statement), removed again (they start next month, so they may be), then the app's upload,
 * check and commit of them as a CSV file. `timeAppImport` is the bench server's.
 */
export async function benchPriceImport(db, timeAppImport, appPort, token) {
  const { carriers, rows, csv, day } = await priceRows(db);
  const clear = () =>
    db.query('DELETE FROM gov_plan_prices WHERE carrier_id = ANY ($1::bigint[])', [
      carriers.map((carrier) => carrier.id),
    ]);
  const start = performance.now();
  await db.query(
    `INSERT INTO gov_plan_prices (carrier_id, programme, state, model_id, version,
       device_price_cents, plan_name, data_gb, minutes, effective_from)
     SELECT carrier_id, programme, NULLIF(state, ''), model_id, 1, 1001, 'Bench plan', 4.5, 1000,
       $5::date
     FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[])
       AS r (carrier_id, programme, state, model_id)`,
    [
      rows.map((r) => r.carrier.id),
      rows.map((r) => r.programme),
      rows.map((r) => r.state),
      rows.map((r) => r.model.id),
      day,
    ],
  );
  const rawSeconds = (performance.now() - start) / 1000;
  await clear();
  const app = await timeAppImport(appPort, token, 'gov-plan-prices', 'prices.csv', csv);
  await clear();
  return { rows: rows.length, rawSeconds, ...app };
}
