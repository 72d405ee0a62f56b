import type { SimAllocationAnswer, SimRequestDetail } from '@inventory/contract';

/**
 * A request as it stands after an allocation scan's answer, so that the station puts the answer
 * on the page instead of reading the request again. Null when the answer's count is not what this
 * tab's read leads to (another station allocated or took SIMs off meanwhile): the request is read
 * again.
 */
export function requestAfterScan(
  request: SimRequestDetail,
  answer: SimAllocationAnswer,
): SimRequestDetail | null {
  if (answer.qty_allocated !== request.qty_allocated + answer.added.length) return null;
  if (answer.added.length === 0) return request;
  const added = new Set(answer.added.map((sim) => sim.id));
  return {
    ...request,
    qty_allocated: answer.qty_allocated,
    sims: [...answer.added, ...request.sims.filter((sim) => !added.has(sim.id))],
  };
}
