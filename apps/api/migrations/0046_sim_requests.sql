-- SIM requests (issue 17, DOMAIN.md 4.6 /sim/request, 7): the indexes behind each request's
-- agent figures. The queue shows, per row, the agent's activation rate: SIMs credited to the
-- agent's activations over SIMs the agent received. IF NOT EXISTS: the SIM dashboard reads the
-- same figures and may build the same index.
CREATE INDEX IF NOT EXISTS sim_cards_activated_agent ON sim_cards (activated_agent_id)
  WHERE activated_agent_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS agent_sim_ledger_agent_entry ON agent_sim_ledger (agent_id, entry);
