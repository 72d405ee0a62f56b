import type { SimReturnDetail, SimReturnScanAnswer } from '@inventory/contract';

/**
 * A return as it stands after a scan's answer: its counts and status are the answer's, and the
 * scanned ICCID's line moves to the top (received newest first). A repeat changes nothing. Null
 * when the answer counts more than the page and this scan explain (another station scanned
 * meanwhile): the return is read again.
 */
export function returnAfterScan(
  detail: SimReturnDetail,
  answer: SimReturnScanAnswer,
): SimReturnDetail | null {
  if (answer.result === 'already_received') return { ...detail, return: answer.return };
  const scanned = (line: { iccid: string }) => line.iccid === answer.line.iccid;
  const others = detail.lines.filter((line) => !scanned(line));
  const received = others.filter((line) => line.received_at !== null);
  const returned = answer.result === 'returned' ? 1 : 0;
  const flagged = answer.result === 'returned' ? 0 : 1;
  if (
    answer.return.qty_received !== detail.return.qty_received + returned ||
    answer.return.qty_flagged !== detail.return.qty_flagged + flagged
  ) {
    return null;
  }
  return {
    return: answer.return,
    lines: [answer.line, ...received, ...others.filter((line) => line.received_at === null)],
  };
}
