-- Label batches run as a background job (issue 18: "label batches ... run as jobs ... a label
-- batch shows a progress bar and never prints a label twice when retried"; decision 0047). The
-- desk gives a batch its orders; the job labels them in steps, each step one transaction that
-- records what became of its orders, so a server killed mid-batch resumes with the orders left.
ALTER TABLE label_batches
  ADD COLUMN campaign_id bigint REFERENCES campaigns (id),
  ADD COLUMN run_error text;
CREATE INDEX label_batches_campaign ON label_batches (campaign_id) WHERE campaign_id IS NOT NULL;

CREATE TABLE label_batch_orders (
  batch_id bigint NOT NULL REFERENCES label_batches (id) ON DELETE CASCADE,
  order_id bigint NOT NULL REFERENCES orders (id),
  -- The order the desk gave them in: the job labels them in that order.
  position integer NOT NULL,
  result text CHECK (result IN ('created', 'already_labelled', 'refused')),
  message text,
  package_id bigint REFERENCES packages (id),
  done_at timestamptz,
  PRIMARY KEY (batch_id, order_id),
  CHECK ((done_at IS NULL) = (result IS NULL))
);
CREATE INDEX label_batch_orders_waiting ON label_batch_orders (batch_id, position)
  WHERE done_at IS NULL;
CREATE INDEX label_batch_orders_order ON label_batch_orders (order_id);
CREATE INDEX label_batch_orders_package ON label_batch_orders (package_id)
  WHERE package_id IS NOT NULL;
