-- Prepaid payment (issue 18, DOMAIN.md 4.14 /fulfill/prepaid): the client carrier takes the
-- customer's payment at checkout and tells us where it stands; we pick a prepaid order only once
-- the payment is captured, and label it only while it stays captured. The plan the customer
-- bought is kept with the order, as the carrier priced it.
--   authorized: the card is authorised, the money not taken yet (the carrier captures it later);
--   captured:   the money is taken: the order may be picked;
--   failed:     the authorisation or the capture was declined;
--   refunded:   the money went back (a cancelled or returned order).
-- Only prepaid orders carry a payment status; other programmes are paid by the carrier's plan.
ALTER TABLE orders
  ADD COLUMN payment_status text
    CHECK (payment_status IN ('authorized', 'captured', 'failed', 'refunded')),
  ADD COLUMN plan_name text CHECK (length(plan_name) BETWEEN 1 AND 200),
  ADD CONSTRAINT orders_payment_prepaid
    CHECK (payment_status IS NULL OR fulfilment_type = 'prepaid');

-- Prepaid orders taken before payments were tracked were taken as paid. The payment moves no day
-- count: the counting trigger (migrations 0038, 0054) is off for this one statement, which would
-- otherwise hold every prepaid order of the database in its transition tables.
ALTER TABLE orders DISABLE TRIGGER orders_count_days_update;
UPDATE orders SET payment_status = CASE WHEN status IN ('cancelled', 'returned') THEN 'refunded'
  ELSE 'captured' END
WHERE fulfilment_type = 'prepaid';
ALTER TABLE orders ENABLE TRIGGER orders_count_days_update;

-- Why an order may not be labelled yet (migration 0058), and now a prepaid order whose payment
-- is no longer captured (refunded or failed after the pick). PL/pgSQL, so that its plan is kept:
-- a SQL function with sub-selects is planned again in every statement that calls it, and the pick
-- station's answer calls it at every scan (decision 0054).
CREATE OR REPLACE FUNCTION order_label_blocker(p_order_id bigint)
RETURNS text
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN COALESCE(
    (SELECT 'The payment is ' || COALESCE(o.payment_status, 'not reported') || ', not captured.'
     FROM orders o
     WHERE o.id = p_order_id AND o.fulfilment_type = 'prepaid'
       AND o.payment_status IS DISTINCT FROM 'captured'),
    (SELECT CASE u.kind WHEN 'pairing' THEN 'The carrier pairing' ELSE 'The device change' END
       || CASE u.status
            WHEN 'pending' THEN ' is not sent to the carrier yet.'
            WHEN 'submitted' THEN ' waits for the carrier''s answer.'
            ELSE ' failed' || COALESCE(': ' || u.message, '.')
          END
     FROM (SELECT kind, status, message FROM carrier_updates
           WHERE order_id = p_order_id AND status <> 'cancelled'
           ORDER BY id DESC LIMIT 1) u
     WHERE u.status <> 'ok'),
    (SELECT 'The pre-activated line''s MDN is not recorded yet.'
     FROM orders o JOIN client_carrier_links k ON k.client_carrier_id = o.client_carrier_id
     WHERE o.id = p_order_id AND o.fulfilment_type = 'prepaid' AND k.pre_activation
       AND o.mdn IS NULL));
END
$$;
