-- Substitutions and support orders (DOMAIN.md 3.2, 4.14 /fulfill/substitute and
-- /fulfill/support-order, 5.2 steps 1 and 4a).
--
-- A substitution ships another device variant in place of the one ordered when the ordered one
-- has no stock: what may replace what is each client carrier's rule per programme; the order line
-- takes the new variant and keeps the one it was ordered as. The customer's price never rises.

-- What a client carrier allows in place of an ordered device, per programme: the same OS, at
-- least the storage, at least the grade, and, when listed, only these variants.
CREATE TABLE substitution_rules (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  client_carrier_id bigint NOT NULL REFERENCES vendors (id),
  program text NOT NULL CHECK (program IN ('lifeline', 'tribal', 'acp-legacy', 'prepaid')),
  same_os boolean NOT NULL DEFAULT true,
  storage_at_least boolean NOT NULL DEFAULT true,
  grade_at_least boolean NOT NULL DEFAULT true,
  -- Variants are archived, never deleted, so their ids stay good without a reference each.
  allowed_variant_ids bigint[] NOT NULL DEFAULT '{}',
  -- The client carrier wants to hear of each substitution (no mail is sent: a list to work).
  notify_client boolean NOT NULL DEFAULT false,
  note text CHECK (length(note) <= 500),
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX substitution_rules_key ON substitution_rules (client_carrier_id, program);

-- A substitution proposed, applied or rejected on one order line.
CREATE TABLE order_substitutions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_id bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  order_line_id bigint NOT NULL REFERENCES order_lines (id) ON DELETE CASCADE,
  rule_id bigint REFERENCES substitution_rules (id) ON DELETE SET NULL,
  from_variant_id bigint NOT NULL REFERENCES product_variants (id),
  to_variant_id bigint NOT NULL REFERENCES product_variants (id),
  qty integer NOT NULL CHECK (qty > 0),
  -- The customer's price of a unit as ordered, and of the substitute (plan co-pay or listing).
  ordered_price_cents bigint NOT NULL,
  substitute_price_cents bigint NOT NULL CHECK (substitute_price_cents <= ordered_price_cents),
  status text NOT NULL CHECK (status IN ('proposed', 'applied', 'rejected')),
  notify_client boolean NOT NULL,
  client_notified_at timestamptz,
  client_notified_by bigint REFERENCES users (id) ON DELETE SET NULL,
  note text CHECK (length(note) <= 500),
  proposed_at timestamptz NOT NULL DEFAULT now(),
  proposed_by bigint REFERENCES users (id) ON DELETE SET NULL,
  decided_at timestamptz,
  decided_by bigint REFERENCES users (id) ON DELETE SET NULL,
  CHECK (from_variant_id <> to_variant_id),
  CHECK ((status = 'proposed') = (decided_at IS NULL))
);
-- One open proposal per line: a second one (two sessions at once) is refused by this index.
CREATE UNIQUE INDEX order_substitutions_open_line ON order_substitutions (order_line_id)
  WHERE status = 'proposed';
CREATE INDEX order_substitutions_line ON order_substitutions (order_line_id);
CREATE INDEX order_substitutions_order ON order_substitutions (order_id, id);
CREATE INDEX order_substitutions_rule ON order_substitutions (rule_id) WHERE rule_id IS NOT NULL;
CREATE INDEX order_substitutions_from ON order_substitutions (from_variant_id);
CREATE INDEX order_substitutions_to ON order_substitutions (to_variant_id);
-- The two work lists: proposals awaiting a manager, applied ones awaiting the client's notice.
CREATE INDEX order_substitutions_proposed ON order_substitutions (proposed_at, id)
  WHERE status = 'proposed';
CREATE INDEX order_substitutions_to_notify ON order_substitutions (decided_at, id)
  WHERE status = 'applied' AND notify_client AND client_notified_at IS NULL;

-- Whether a rule lets a device variant ship in place of another (the page's candidates and the
-- server's check read this one rule): an active device variant other than the one ordered, of
-- the same OS, with at least its storage and grade, the same carrier lock when the ordered one
-- names one, and among the rule's listed variants when it lists any. Grades rank New, A+, A ... F.
CREATE FUNCTION substitution_allows(p_rule_id bigint, p_from_variant_id bigint,
  p_to_variant_id bigint)
RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM substitution_rules r
    JOIN product_variants v ON v.id = p_from_variant_id
    JOIN products vp ON vp.id = v.product_id
    JOIN device_models vm ON vm.id = vp.model_id
    JOIN product_variants w ON w.id = p_to_variant_id AND w.status = 'active'
    JOIN products wp ON wp.id = w.product_id AND wp.kind = 'device' AND wp.status = 'active'
    JOIN device_models wm ON wm.id = wp.model_id
    WHERE r.id = p_rule_id AND r.active AND w.id <> v.id
      AND (NOT r.same_os OR wm.os IS NOT DISTINCT FROM vm.os)
      AND (NOT r.storage_at_least OR v.capacity_gb IS NULL OR w.capacity_gb >= v.capacity_gb)
      AND (NOT r.grade_at_least OR v.grade IS NULL
        OR array_position(ARRAY['New', 'A+', 'A', 'B', 'C', 'D', 'F'], w.grade)
          <= array_position(ARRAY['New', 'A+', 'A', 'B', 'C', 'D', 'F'], v.grade))
      AND (v.carrier_lock IS NULL OR w.carrier_lock = v.carrier_lock)
      AND (cardinality(r.allowed_variant_ids) = 0 OR w.id = ANY (r.allowed_variant_ids)))
$$;

-- What the customer of an order line would pay for a unit of another variant: the government
-- plan's co-pay in effect today for the order's carrier, programme and service state, else the
-- live listing's price on the channel the line sold on; NULL when neither is known.
CREATE FUNCTION substitute_price_cents(p_line_id bigint, p_to_variant_id bigint)
RETURNS bigint
LANGUAGE sql STABLE AS $$
  SELECT COALESCE(
    (SELECT g.device_price_cents
     FROM order_lines l
     JOIN orders o ON o.id = l.order_id
     JOIN subscribers s ON s.id = o.subscriber_id
     JOIN product_variants w ON w.id = p_to_variant_id
     JOIN products wp ON wp.id = w.product_id
     CROSS JOIN LATERAL effective_plan_price(o.client_carrier_id, o.program, s.service_state,
       wp.model_id, w.id, plan_price_today()) g
     WHERE l.id = p_line_id AND o.program IS NOT NULL),
    (SELECT n.price_cents
     FROM order_lines l
     JOIN pts_listings c ON c.id = l.listing_id
     JOIN pts_listings n ON n.variant_id = p_to_variant_id AND n.channel = c.channel
       AND n.status = 'live'
     WHERE l.id = p_line_id
     ORDER BY n.id LIMIT 1))
$$;

-- The variant a line was ordered as, once it ships another (DOMAIN.md 2.2 substituted_from).
ALTER TABLE order_lines
  ADD COLUMN substituted_from_variant_id bigint REFERENCES product_variants (id);
CREATE INDEX order_lines_substituted_from ON order_lines (substituted_from_variant_id)
  WHERE substituted_from_variant_id IS NOT NULL;

-- The no-stock backlog the substitution page reads, oldest first.
CREATE INDEX orders_no_stock_created ON orders (created_at, id)
  WHERE status = 'on_hold' AND hold_reason = 'no_stock';

-- Support orders: the same item for the same subscriber again within this many days is a
-- duplicate, refused unless a manager overrides.
ALTER TABLE order_settings
  ADD COLUMN support_duplicate_days integer NOT NULL DEFAULT 30
    CHECK (support_duplicate_days BETWEEN 1 AND 365);

-- What a support order is for, and its manager's decisions: device items wait for approval
-- before the order goes to the queue; a duplicate goes ahead only with a manager's override.
CREATE TABLE support_orders (
  order_id bigint PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
  reason text NOT NULL CHECK (reason IN ('missing_item', 'defective_accessory',
    'sim_replacement', 'goodwill', 'service_recovery')),
  note text CHECK (length(note) <= 1000),
  needs_approval boolean NOT NULL,
  approved_at timestamptz,
  approved_by bigint REFERENCES users (id) ON DELETE SET NULL,
  -- The earlier orders found within the window, when a manager let it through anyway.
  duplicate_of text[],
  duplicate_override_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX support_orders_awaiting ON support_orders (order_id)
  WHERE needs_approval AND approved_at IS NULL;

-- The subscriber lookup of the support form, by enrolment or account number across carriers.
CREATE INDEX subscribers_external_id ON subscribers (external_id) WHERE external_id IS NOT NULL;
