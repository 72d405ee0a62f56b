import {
  RECEIVED_RESULTS,
  type BoxContent,
  type BoxCounts,
  type ReceiveScan,
  type ScanLog,
  type ScanLogEntry,
} from '@inventory/contract';

/**
 * How a box's reads change with a scan's or an undo's answer, so that the station puts the answer
 * on the page instead of reading the box again. Each gives null when the answer's count is not
 * what this tab's reads lead to: another station scanned or undid at the box meanwhile, and the
 * box is read again.
 */

/** The box's content after a scan: its counts, and the device in its list or in quarantine. */
export function contentAfterScan(content: BoxContent, answer: ReceiveScan): BoxContent | null {
  const device = answer.device;
  const intoBox = device !== null && RECEIVED_RESULTS.includes(answer.result);
  const toQuarantine = device !== null && answer.result === 'blacklisted';
  if (answer.box.qty_scanned !== content.box.qty_scanned + (intoBox ? 1 : 0)) return null;
  if (!intoBox && !toQuarantine) return { ...content, box: { ...content.box, ...answer.box } };
  const others = <T extends { id: number }>(rows: readonly T[]) =>
    rows.filter((row) => row.id !== device.id);
  return {
    box: { ...content.box, ...answer.box },
    devices: intoBox
      ? [{ ...device, result: answer.result }, ...others(content.devices)]
      : content.devices,
    quarantined: toQuarantine
      ? [device, ...others(content.quarantined)]
      : others(content.quarantined),
  };
}

/** The scan's row of the box's scan log, as the log lists it. */
export const logEntryOf = (answer: ReceiveScan): ScanLogEntry => ({
  id: answer.log_id,
  at: answer.at,
  station: answer.station,
  user_name: answer.user_name,
  code: answer.code,
  result: answer.result,
  message: answer.message,
  tac: answer.tac,
});

/** The box's scan log with the scan on top. */
export const logAfterScan = (log: ScanLog, answer: ReceiveScan): ScanLog => ({
  ...log,
  entries: [logEntryOf(answer), ...log.entries.filter((entry) => entry.id !== answer.log_id)],
});

/** The box's content once a device is taken out of it. */
export function contentAfterUndo(
  content: BoxContent,
  deviceId: number,
  counts: BoxCounts,
): BoxContent | null {
  if (counts.qty_scanned !== content.box.qty_scanned - 1) return null;
  return {
    ...content,
    box: { ...content.box, ...counts },
    devices: content.devices.filter((device) => device.id !== deviceId),
  };
}
