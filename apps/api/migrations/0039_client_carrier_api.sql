-- The client carriers' API (issue 16): a government-plan carrier sends approved enrolments as
-- orders and reads their status back. Each carrier calls with its own API keys; a request carries
-- an idempotency key so that a retry (a timeout, a killed server) never creates a second order.

-- Only the SHA-256 of a key is kept: keys are 256 random bits, so a slow password hash would add
-- nothing but latency to every call, and a leaked table cannot be turned back into keys.
CREATE TABLE client_carrier_api_keys (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  client_carrier_id bigint NOT NULL REFERENCES vendors (id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  -- The first characters of the key, to tell keys apart in the list; never enough to use one.
  key_prefix text NOT NULL,
  key_hash text NOT NULL CHECK (key_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  last_used_at timestamptz,
  revoked_at timestamptz,
  revoked_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX client_carrier_api_keys_hash_key ON client_carrier_api_keys (key_hash);
CREATE INDEX client_carrier_api_keys_carrier ON client_carrier_api_keys (client_carrier_id, id);

-- One answer per carrier and idempotency key. The row is written in the transaction that does
-- the work, so a retry either finds the committed answer or, when the first attempt died, does
-- the work itself; a concurrent retry waits on the key's unique index and then reads the answer.
CREATE TABLE client_carrier_requests (
  client_carrier_id bigint NOT NULL REFERENCES vendors (id),
  idempotency_key text NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 200),
  -- What was asked (method, path and body), so the same key with another request is refused.
  request_hash text NOT NULL CHECK (request_hash ~ '^[0-9a-f]{64}$'),
  answer jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client_carrier_id, idempotency_key)
);
CREATE INDEX client_carrier_requests_created ON client_carrier_requests (created_at);

-- A carrier reads its orders back in the order they last changed (GET /carrier/orders?after=).
CREATE INDEX orders_carrier_changes ON orders (client_carrier_id, updated_at, id)
  WHERE external_ref IS NOT NULL;
