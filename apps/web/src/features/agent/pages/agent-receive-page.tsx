import {
  AGENT_RECEIVE_TONES,
  parseIccid,
  type AgentReceiveAnswer,
  type AgentReceiveResult,
  type AgentSimRequestDetail,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Card,
  Empty,
  List,
  Popconfirm,
  Space,
  Spin,
  Typography,
  type InputRef,
} from 'antd';
import { useRef, useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import type { PageProps } from '../../../shell/page-types';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import { useUrlParam } from '../../../shell/use-url-state';
import { when } from '../../../toolkit/format';
import {
  beep,
  ExpectedFound,
  queuedLine,
  ScanInput,
  ScanLog,
  useScanQueue,
  useWedgeScanner,
  withAnswer,
  type ScanFeedback,
  type ScanLine,
} from '../../../toolkit/station';
import {
  useAgentShipment,
  useIncomingShipments,
  useReceiveShipment,
} from '../api/agent-requests.queries';

const RECEIVE_FEEDBACK: ScanFeedback<AgentReceiveResult> = {
  tones: AGENT_RECEIVE_TONES,
  words: {
    received: 'Received',
    already_received: 'Already received',
    other_request: 'Other request',
    not_yours: 'Not yours',
    unknown: 'Unknown',
    invalid: 'Invalid',
  },
};

/**
 * The receipt of one shipment, on the station toolkit: a pack label receives the pack's SIMs, an
 * ICCID its SIM (checked with its Luhn digit before it is sent). `scan` is the one way in, so a
 * camera scanner placed beside the field hands its codes to it too. Finishing reports the SIMs not
 * scanned as missing to the coordinator.
 */
function ReceiveStation({ shipment }: { shipment: AgentSimRequestDetail }) {
  const receipt = useReceiveShipment(shipment.id);
  const [answered, setAnswered] = useState<ScanLine<AgentReceiveResult>[]>([]);
  const receiving = shipment.status === 'shipped';
  const scanField = useRef<InputRef>(null);
  const scanner = useWedgeScanner(scanField, receiving);
  const queue = useScanQueue({
    send: receipt.send,
    apply: (answer: AgentReceiveAnswer) => {
      beep(AGENT_RECEIVE_TONES[answer.result]);
      setAnswered((lines) => withAnswer(lines, answer));
      return receipt.apply(answer);
    },
    failed: () => beep('error'),
    applyFailed: receipt.reread,
  });

  const scan = (code: string) => {
    if (!/^SP-?\d+$/i.test(code)) {
      const parsed = parseIccid(code);
      if (!parsed.ok) {
        beep('error');
        setAnswered((lines) =>
          withAnswer(lines, { code, result: 'invalid', message: parsed.message }),
        );
        return;
      }
    }
    queue.enqueue(code);
  };

  const waiting = shipment.sims.filter((sim) => sim.status === 'in_transit');
  const finish = async () => {
    try {
      const done = await receipt.finish.mutateAsync();
      notify.success(
        done.qty_missing
          ? `${done.number} is received: ${done.qty_received} SIMs, ${done.qty_missing} reported missing.`
          : `${done.number} is received: all ${done.qty_received} SIMs.`,
      );
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <section aria-label={`Receive ${shipment.number}`}>
      <Typography.Title level={2} style={{ fontSize: 18 }}>
        {shipment.number} · {shipment.client_carrier}
      </Typography.Title>
      <ExpectedFound
        tallies={[
          {
            key: 'received',
            label: 'Received',
            found: shipment.qty_scanned,
            expected: shipment.qty_shipped,
            testId: 'received-count',
          },
        ]}
      />
      {receiving ? (
        <Space orientation="vertical" style={{ width: '100%', marginBottom: 12 }}>
          <ScanInput
            ref={scanField}
            scanner={scanner}
            label="Scan a pack or ICCID"
            placeholder="Pack label (SP-…) or ICCID, then Enter"
            onScan={scan}
          />
          <Popconfirm
            title={`Finish receiving ${shipment.number}?`}
            description={
              waiting.length > 0
                ? `${waiting.length} SIM${waiting.length === 1 ? ' was' : 's were'} not scanned: your coordinator is told they are missing.`
                : 'Every SIM of the shipment is scanned.'
            }
            okText="Finish receiving"
            onConfirm={finish}
            onOpenChange={(open) => !open && scanner.refocus()}
          >
            <Button type="primary" block loading={receipt.finish.isPending}>
              Finish receiving
            </Button>
          </Popconfirm>
        </Space>
      ) : (
        <Alert
          type={shipment.qty_missing ? 'warning' : 'success'}
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="receipt-done"
          title={`${shipment.number} is received: ${shipment.qty_received ?? 0} SIMs${shipment.qty_missing ? `, ${shipment.qty_missing} reported missing to your coordinator` : ''}.`}
        />
      )}
      <ScanLog
        lines={[...queue.queued.map(queuedLine), ...answered]}
        feedback={RECEIVE_FEEDBACK}
        empty="Scan a pack label or an ICCID: each answer shows here."
      />
      {waiting.length > 0 && (
        <details style={{ marginTop: 12 }}>
          <summary>Not scanned yet ({waiting.length})</summary>
          <List
            size="small"
            dataSource={waiting}
            renderItem={(sim) => (
              <List.Item key={sim.id}>
                {sim.iccid}
                {sim.pack_code ? ` · ${sim.pack_code}` : ''}
              </List.Item>
            )}
          />
        </details>
      )}
    </section>
  );
}

/**
 * Receive shipment (agent portal, DOMAIN.md 7): the agent's shipped requests; one chosen
 * (`?shipment=`) opens its receipt station.
 */
export default function AgentReceivePage(_props: PageProps) {
  const incoming = useIncomingShipments();
  const [chosen, setChosen] = useUrlParam('shipment');
  const chosenId = Number(chosen) || null;
  const shipment = useAgentShipment(chosenId);

  return (
    <>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        Receive shipment
      </Typography.Title>
      {chosenId ? (
        <>
          <Button onClick={() => setChosen(undefined)} style={{ marginBottom: 12 }}>
            All shipments
          </Button>
          {shipment.data ? (
            <ReceiveStation shipment={shipment.data} />
          ) : shipment.isError ? (
            <Alert type="error" showIcon title={shipment.error.message} />
          ) : (
            <Spin />
          )}
        </>
      ) : incoming.isError ? (
        <Alert
          type="error"
          showIcon
          title="Your shipments could not be loaded."
          description={incoming.error.message}
          action={<Button onClick={() => void incoming.refetch()}>Try again</Button>}
        />
      ) : !incoming.data ? (
        <Spin />
      ) : incoming.data.length === 0 ? (
        <Empty description="No shipment is on its way to you." />
      ) : (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary">
            Choose the shipment in your hands, then scan its pack labels or ICCIDs.
          </Typography.Paragraph>
          {incoming.data.map((request) => (
            <Card
              key={request.id}
              size="small"
              title={`${request.number} · ${request.client_carrier}`}
              extra={
                <Button type="primary" onClick={() => setChosen(String(request.id))}>
                  Receive
                </Button>
              }
            >
              {request.qty_approved} SIMs · {request.delivery === 'pickup' ? 'Pickup' : 'Shipped'}{' '}
              {when(request.shipped_at)}
              {request.tracking_number ? ` · tracking ${request.tracking_number}` : ''}
            </Card>
          ))}
        </Space>
      )}
    </>
  );
}
