import type { GaylordDetail, GaylordScanAnswer } from '@inventory/contract';

/**
 * How a gaylord's read changes with a scan's answer, so that the sorting station puts the answer
 * on the page instead of reading the gaylord again: a parcel sorted in goes on top of its parcels,
 * and the count and weight are the answer's. Null when the answer's count is not what this tab's
 * read leads to (another station scanned into the gaylord or took a parcel out meanwhile): the
 * gaylord is read again.
 */
export function gaylordAfterScan(
  detail: GaylordDetail,
  answer: GaylordScanAnswer,
): GaylordDetail | null {
  if (answer.gaylord.id !== detail.gaylord.id) return null;
  const sorted = answer.result === 'sorted' && answer.package !== null;
  if (answer.gaylord.parcels !== detail.gaylord.parcels + (sorted ? 1 : 0)) return null;
  if (!sorted) return { ...detail, gaylord: answer.gaylord };
  return {
    gaylord: answer.gaylord,
    parcels: [answer.package!, ...detail.parcels.filter((row) => row.id !== answer.package!.id)],
  };
}
