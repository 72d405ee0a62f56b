/** What other areas (the agent portal) use of the SIM area. */
export { simRequestStore, simStore, writeAgentLedger, writeSimEvent } from './sim-lifecycle.js';
export { agentSimFigures, lockScannedSims, requestSims } from './sim-requests.service.js';
export {
  AGENT_RETURNABLE_STATUSES,
  cancelSimReturn,
  createSimReturn,
  SIM_RETURN_COLUMNS,
  simReturnDetail,
  simReturnLabel,
} from './sim-returns.service.js';
export { findSimCard } from './sim-cards.service.js';
export { findSimBox, findSimPack, packsOfBox, simPackLabels } from './sim-boxes.service.js';
export { applyDetectionFile, LOAD_BATCH_ROWS } from './sim-detection.service.js';
