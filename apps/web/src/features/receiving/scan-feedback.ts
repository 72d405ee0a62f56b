import { SCAN_TONES, type ReceiveScanResult, type WarehouseBoxStatus } from '@inventory/contract';
import type { ScanFeedback } from '../../toolkit/station';

/** Each result in a few words, for its tag in the station's log and the box's list. */
export const RESULT_WORDS: Record<ReceiveScanResult, string> = {
  added: 'Added',
  model_mismatch: 'Added, other model',
  unexpected: 'Added, not on invoice',
  blacklisted: 'Blacklisted, to quarantine',
  already_in_box: 'Already in this box',
  quarantined: 'In quarantine',
  in_other_box: 'In another box',
  in_registry: 'Already received',
  other_invoice: 'Other invoice',
  unknown_tac: 'Unknown TAC',
  meid_unknown: 'Unknown MEID',
  bad_check_digit: 'Bad check digit',
  imeisv: 'IMEISV',
  not_an_identifier: 'Not an IMEI',
};

/** How the receiving station shows and plays each answer: the contract's tones, our words. */
export const RECEIVING_FEEDBACK: ScanFeedback<ReceiveScanResult> = {
  tones: SCAN_TONES,
  words: RESULT_WORDS,
};

/** The colour of a box's status tag. */
export const BOX_STATUS_COLORS: Record<WarehouseBoxStatus, string> = {
  receiving: 'blue',
  received: 'green',
  staged: 'cyan',
  requested: 'gold',
  in_production: 'geekblue',
  emptied: 'default',
};
