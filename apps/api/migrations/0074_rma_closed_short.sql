-- An RMA closed short (issue 19, DOMAIN.md 3.4): the parcel came without some of the devices the
-- RMA expects, and a supervisor closed it with the reason (on its timeline). Those lines are
-- marked not returned; their devices stay as they were, with the customer.
ALTER TABLE rma_lines
  ADD COLUMN not_returned boolean NOT NULL DEFAULT false,
  ADD CONSTRAINT rma_lines_not_returned_unreceived
    CHECK (NOT (not_returned AND received_at IS NOT NULL));
