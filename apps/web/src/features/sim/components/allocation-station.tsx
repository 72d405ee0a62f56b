import {
  parseIccid,
  SIM_ALLOCATION_TONES,
  type SimAllocationAnswer,
  type SimAllocationResult,
  type SimRequestDetail,
} from '@inventory/contract';
import { Alert, Button, Popconfirm, Space, Table, type InputRef } from 'antd';
import { useRef, useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import {
  beep,
  ExpectedFound,
  queuedLine,
  ScanInput,
  ScanLog,
  StationColumn,
  StationColumns,
  StationNameInput,
  useScanQueue,
  useStationName,
  useWedgeScanner,
  withAnswer,
  type ScanFeedback,
  type ScanLine,
} from '../../../toolkit/station';
import { useAllocationScan, useSimRequestActions } from '../api/sim-requests.queries';

export const ALLOCATION_FEEDBACK: ScanFeedback<SimAllocationResult> = {
  tones: SIM_ALLOCATION_TONES,
  words: {
    allocated: 'Allocated',
    already_allocated: 'Already allocated',
    other_request: 'Other request',
    not_in_stock: 'Not in stock',
    wrong_carrier: 'Other carrier',
    over_approved: 'Over approved',
    unknown: 'Unknown',
    invalid: 'Invalid',
  },
};

/**
 * The allocation station of an approved request, on the station toolkit: a pack label (SP-…)
 * allocates the pack's SIMs in stock, an ICCID its SIM. An ICCID is checked (Luhn) before it is
 * sent; the server checks it again. Each answer is put on the page: the count against the approved
 * quantity and the SIMs allocated. A SIM is taken off with its ICCID.
 */
export function AllocationStation({ request }: { request: SimRequestDetail }) {
  const allocation = useAllocationScan(request.id);
  const actions = useSimRequestActions(request.id);
  const [station, setStation] = useStationName();
  const [answered, setAnswered] = useState<ScanLine<SimAllocationResult>[]>([]);
  const scanField = useRef<InputRef>(null);
  const scanner = useWedgeScanner(scanField, true);
  const queue = useScanQueue({
    send: (code) => allocation.send(code, station.trim()),
    apply: (answer: SimAllocationAnswer) => {
      beep(SIM_ALLOCATION_TONES[answer.result]);
      setAnswered((lines) => withAnswer(lines, answer));
      return allocation.apply(answer);
    },
    failed: () => beep('error'),
    applyFailed: allocation.reread,
  });

  /** A mistyped ICCID is answered here, without a call; a pack label goes as it is. */
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

  const lines = [...queue.queued.map(queuedLine), ...answered];
  const allocated = request.sims.filter((sim) => sim.status === 'allocated');
  const approved = request.qty_approved ?? 0;

  const pack = async () => {
    try {
      await actions.pack.mutateAsync();
      notify.success(`${request.number} is packed: print the packing slip and ship it.`);
    } catch (error) {
      showApiError(error);
    } finally {
      scanner.refocus();
    }
  };
  const takeOff = async (iccid: string) => {
    try {
      await actions.unallocate.mutateAsync(iccid);
      notify.success(`${iccid} is back in stock.`);
    } catch (error) {
      showApiError(error);
    } finally {
      scanner.refocus();
    }
  };

  return (
    <section aria-label={`Allocate SIMs to ${request.number}`}>
      <ExpectedFound
        tallies={[
          {
            key: 'allocated',
            label: 'Allocated',
            found: request.qty_allocated,
            expected: approved,
            testId: 'allocated-count',
          },
        ]}
      />
      <Space wrap align="start" style={{ marginBottom: 12 }}>
        <ScanInput
          ref={scanField}
          scanner={scanner}
          label="Scan a pack or ICCID"
          placeholder="Scan a pack label (SP-…) or an ICCID, then Enter"
          onScan={scan}
        />
        <StationNameInput station={station} onChange={setStation} onDone={scanner.refocus} />
        <Button
          type="primary"
          disabled={request.qty_allocated !== approved}
          loading={actions.pack.isPending}
          onClick={() => void pack()}
        >
          Mark packed
        </Button>
      </Space>
      <StationColumns>
        <StationColumn title="Scans">
          <ScanLog
            lines={lines}
            feedback={ALLOCATION_FEEDBACK}
            empty="Scan the first pack label or ICCID: each answer shows here."
          />
        </StationColumn>
        <StationColumn title={`Allocated (${allocated.length})`}>
          {allocated.length === 0 ? (
            <Alert type="info" showIcon title="Nothing is allocated to this request yet." />
          ) : (
            <Table
              size="small"
              rowKey="id"
              pagination={{ pageSize: 20, hideOnSinglePage: true }}
              dataSource={allocated}
              columns={[
                { key: 'iccid', dataIndex: 'iccid', title: 'ICCID' },
                {
                  key: 'pack',
                  title: 'Pack',
                  render: (_: unknown, sim) => sim.pack_code ?? '—',
                },
                {
                  key: 'off',
                  title: 'Take off',
                  render: (_: unknown, sim) => (
                    <Popconfirm
                      title={`Take ${sim.iccid} off ${request.number}?`}
                      description="It goes back to stock."
                      okText="Take off"
                      onConfirm={() => takeOff(sim.iccid)}
                      onOpenChange={(open) => !open && scanner.refocus()}
                    >
                      <Button size="small" aria-label={`Take ${sim.iccid} off`}>
                        Take off
                      </Button>
                    </Popconfirm>
                  ),
                },
              ]}
            />
          )}
        </StationColumn>
      </StationColumns>
    </section>
  );
}
