import type { Queryable } from '../../db/db.js';

/** The states the generated retailers and subscribers live in, each with a ZIP that lies in it. */
export const GENERATED_PLACES = [
  ['TX', 'DALLAS', '75201'],
  ['TX', 'HOUSTON', '77002'],
  ['CA', 'LOS ANGELES', '90012'],
  ['NY', 'NEW YORK', '10001'],
  ['FL', 'MIAMI', '33130'],
  ['IL', 'CHICAGO', '60601'],
  ['OH', 'COLUMBUS', '43215'],
  ['GA', 'ATLANTA', '30303'],
  ['AZ', 'PHOENIX', '85004'],
  ['MI', 'DETROIT', '48226'],
] as const;

/** A place of GENERATED_PLACES chosen by an SQL expression: its (state, city, zip) columns. */
export const generatedPlaceSql = (index: string) => {
  const column = (at: number) =>
    `(ARRAY['${GENERATED_PLACES.map((place) => place[at]).join("','")}'])[(${index}) % ${GENERATED_PLACES.length} + 1]`;
  return { state: column(0), city: column(1), zip: column(2) };
};

/**
 * Retailers for the data generator: stores, dealers and distributors with a shipping address and
 * a main contact, in price tiers and credit terms. Set-based; nothing when there are retailers.
 */
export async function generateRetailers(db: Queryable, count: number): Promise<number> {
  const [existing] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM (SELECT 1 FROM retailers LIMIT 1) x',
  );
  if (existing!.n > 0 || count < 1) return 0;
  const place = generatedPlaceSql('r');
  await db.query(
    `WITH made AS (
       INSERT INTO retailers (name, legal_name, type, price_tier, credit_terms, credit_limit_cents)
       SELECT 'Retailer ' || lpad(r::text, 4, '0'), 'Retailer ' || lpad(r::text, 4, '0') || ' LLC',
         (ARRAY['store', 'dealer', 'distributor'])[r % 3 + 1],
         (ARRAY['standard', 'silver', 'gold', 'platinum'])[r % 4 + 1],
         (ARRAY['prepaid', 'net15', 'net30', 'net60'])[r % 4 + 1],
         CASE WHEN r % 4 = 0 THEN 0 ELSE (r % 10 + 1) * 500000 END
       FROM generate_series(1, $1::int) AS r
       RETURNING id, substring(name FROM 10)::int AS r),
     addresses AS (
       INSERT INTO retailer_addresses (retailer_id, kind, line1, city, state, zip, is_default)
       SELECT id, 'shipping', (100 + r) || ' COMMERCE ST', ${place.city}, ${place.state}, ${place.zip}, true
       FROM made)
     INSERT INTO retailer_contacts (retailer_id, name, email, phone, role, is_main)
     SELECT id, 'Buyer ' || r, 'buyer' || r || '@retailer.example', '+1 555 010 ' || lpad((r % 10000)::text, 4, '0'),
       'Purchasing', true
     FROM made`,
    [count],
  );
  return count;
}
