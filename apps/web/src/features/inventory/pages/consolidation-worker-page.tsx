import type { ConsolidationAnswer, ConsolidationResult, InventoryBox } from '@inventory/contract';
import { Alert, Button, Descriptions, Space, Table, Typography, type InputRef } from 'antd';
import { useRef, useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
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
  type ScanLine,
  withAnswer,
} from '../../../toolkit/station';
import {
  consolidationPlacement,
  consolidationScan,
  openInventoryBoxLabel,
  useBoxActions,
  useOpenBoxes,
} from '../api/inventory.queries';
import { boxKind, CONSOLIDATION_FEEDBACK, isBoxCode } from '../consolidation-feedback';

/** The log keeps this tab's latest answers. */

/**
 * The consolidation worker's station (DOMAIN.md 4.17), keyboard only, on the station toolkit:
 * scan a device and the server names the open box it goes to (opening one when none matches);
 * scan that box to put it in. A full box asks to be sealed; sealing prints its IB label.
 */
export default function ConsolidationWorkerPage({ entry }: PageProps) {
  const boxes = useOpenBoxes();
  const actions = useBoxActions();
  const [station, setStation] = useStationName();
  const [lines, setLines] = useState<readonly ScanLine<ConsolidationResult>[]>([]);
  const [box, setBox] = useState<InventoryBox | null>(null);
  // The device waiting for its box scan: read by the next scan when its turn comes.
  const waiting = useRef<string | null>(null);
  const [waitingCode, setWaitingCode] = useState<string | null>(null);
  const scanField = useRef<InputRef>(null);
  const scanner = useWedgeScanner(scanField, true);

  const wait = (code: string | null) => {
    waiting.current = code;
    setWaitingCode(code);
  };
  const queue = useScanQueue({
    send: async (code): Promise<ConsolidationAnswer> => {
      if (!isBoxCode(code)) return consolidationScan(code, station.trim());
      if (!waiting.current) throw new Error('Scan a device first, then the box it goes to.');
      return consolidationPlacement(waiting.current, code, station.trim());
    },
    apply: (answer: ConsolidationAnswer) => {
      beep(CONSOLIDATION_FEEDBACK.tones[answer.result]);
      setLines((current) => withAnswer(current, answer));
      if (answer.box) setBox(answer.box);
      // A named box waits for its scan; a mismatch leaves the device waiting for the right box.
      if (answer.result === 'box_named') wait(answer.device?.identifier ?? answer.code);
      else if (answer.result !== 'mismatch' && answer.result !== 'box_full') wait(null);
      if (answer.result === 'added') void boxes.refetch();
    },
    failed: () => beep('error'),
  });

  const full = box !== null && box.status === 'open' && box.qty >= box.max_qty;
  const seal = async (target: InventoryBox) => {
    try {
      const sealed = await actions.seal.mutateAsync(target.id);
      setBox(sealed);
      notify.success(`${sealed.code} is sealed: its label prints now.`);
      await openInventoryBoxLabel(sealed.id);
    } catch (error) {
      showApiError(error);
    } finally {
      scanner.refocus();
    }
  };

  return (
    <section aria-label={entry.label}>
      <Typography.Title level={1} style={{ ...PAGE_TITLE_STYLE, marginBottom: 12 }}>
        {entry.label}
      </Typography.Title>
      <Space wrap align="start" style={{ marginBottom: 12 }}>
        <ScanInput
          ref={scanField}
          scanner={scanner}
          label="Scan a device or box"
          placeholder={
            waitingCode ? `Scan the box for ${waitingCode}` : 'Scan or type an IMEI, then Enter'
          }
          onScan={queue.enqueue}
        />
        <StationNameInput station={station} onChange={setStation} onDone={scanner.refocus} />
      </Space>
      {box && (
        <section aria-label="Current box" style={{ marginBottom: 12 }}>
          <Descriptions
            size="small"
            column={{ xs: 1, md: 3 }}
            items={[
              {
                key: 'code',
                label: 'Box',
                children: <strong data-testid="box-code">{box.code}</strong>,
              },
              { key: 'kind', label: 'Holds', children: boxKind(box) },
              { key: 'status', label: 'Status', children: box.status },
            ]}
          />
          <ExpectedFound
            tallies={[
              {
                key: 'fill',
                label: 'In the box',
                found: box.qty,
                expected: box.max_qty,
                testId: 'box-fill',
              },
            ]}
          />
          {full && (
            <Alert
              type="warning"
              showIcon
              title={`${box.code} is full: seal it.`}
              action={
                <Button
                  type="primary"
                  onClick={() => void seal(box)}
                  loading={actions.seal.isPending}
                >
                  Seal and print label
                </Button>
              }
            />
          )}
          {!full && box.status === 'open' && box.qty > 0 && (
            <Button onClick={() => void seal(box)} loading={actions.seal.isPending}>
              Seal {box.code} now
            </Button>
          )}
          {box.status === 'sealed' && (
            <Button
              onClick={() =>
                void openInventoryBoxLabel(box.id).catch(showApiError).finally(scanner.refocus)
              }
            >
              Print label again
            </Button>
          )}
        </section>
      )}
      <StationColumns>
        <StationColumn title="Scans">
          <ScanLog
            lines={[...queue.queued.map(queuedLine), ...lines]}
            feedback={CONSOLIDATION_FEEDBACK}
            empty="Scan a graded device: the box it goes to shows here."
          />
        </StationColumn>
        <StationColumn title="Open boxes">
          <Table<InventoryBox>
            size="small"
            rowKey="id"
            loading={boxes.isLoading}
            dataSource={boxes.data ?? []}
            pagination={false}
            columns={[
              { title: 'Box', dataIndex: 'code' },
              { title: 'Holds', render: (_, row) => boxKind(row) },
              { title: 'Fill', render: (_, row) => `${row.qty} of ${row.max_qty}` },
            ]}
          />
        </StationColumn>
      </StationColumns>
    </section>
  );
}
