import type { DiscrepancyDecision, InvoiceImei, MatchStatus } from '@inventory/contract';
import { Tag, Tooltip } from 'antd';

/** How a manifest IMEI stands, coloured: settled green, waiting blue, a discrepancy red. */
export const MATCH_STATUS_COLORS: Record<MatchStatus, string> = {
  expected: 'blue',
  received: 'green',
  missing: 'red',
  unexpected: 'orange',
  duplicate: 'magenta',
};

/** "vendor_credit" as a clerk says it: "vendor credit". */
export const decisionWords = (decision: DiscrepancyDecision | string) =>
  decision.replace(/_/g, ' ');

export function MatchStatusTag({ status }: { status: MatchStatus }) {
  return <Tag color={MATCH_STATUS_COLORS[status]}>{status}</Tag>;
}

/** The TAC's model, flagged when it is not the model the vendor claims. */
export function TacModel({ imei }: { imei: Pick<InvoiceImei, 'tac_model' | 'model_mismatch'> }) {
  if (!imei.tac_model) return <>—</>;
  return imei.model_mismatch ? (
    <Tooltip title="The TAC says another model than the vendor">
      <Tag color="red">{imei.tac_model} ≠ vendor</Tag>
    </Tooltip>
  ) : (
    <>{imei.tac_model}</>
  );
}

/** A discrepancy's decision, or what it still needs. */
export function DecisionTag({
  imei,
}: {
  imei: Pick<InvoiceImei, 'discrepancy' | 'decision' | 'decision_note'>;
}) {
  if (imei.decision) {
    return <Tag title={imei.decision_note ?? undefined}>{decisionWords(imei.decision)}</Tag>;
  }
  return imei.discrepancy ? <Tag color="gold">needs a decision</Tag> : <>—</>;
}
