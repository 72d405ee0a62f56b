import {
  BOX_SCAN_MODES,
  BOX_SCAN_REOPEN_ACCESS,
  type BoxScanAnswer,
  type BoxScanMode,
  type InventoryBoxCount,
  type StationBox,
  type StationDevice,
} from '@inventory/contract';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Descriptions,
  Empty,
  Space,
  Table,
  Tag,
  Typography,
  type InputRef,
} from 'antd';
import { useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import {
  beep,
  ExpectedFound,
  patchQuery,
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
import { DeviceStatusTag, HoldTag } from '../../devices';
import {
  boxScan,
  readStationBox,
  stationBoxKey,
  useFinishCount,
  useStartCount,
  useStationBox,
  useStationReopen,
} from '../api/boxes.queries';
import {
  BOX_SCAN_FEEDBACK,
  MODE_WORDS,
  stationBoxAfter,
  type BoxStationResult,
} from '../box-scan-answer';
import { boxKind, INVENTORY_BOX_STATUS_COLORS, isBoxCode } from '../consolidation-feedback';

/** The log keeps this tab's latest answers. */

/** The boxes the station works on: the box scanned into (or out of, or counted) and, moving, from. */
type Chosen = { mode: BoxScanMode; box: string | null; from: string | null };

type Answered = { result: BoxStationResult; code: string; message: string; scan?: BoxScanAnswer };

const chosenOf = (params: URLSearchParams): Chosen => {
  const mode = BOX_SCAN_MODES.find((each) => each === params.get('mode')) ?? 'add';
  const code = (key: string) => params.get(key)?.trim().toUpperCase() || null;
  return { mode, box: code('box'), from: mode === 'move' ? code('from') : null };
};

/** A box the station works on: what it is, its fill, and why it cannot change now. */
function BoxPanel({
  title,
  testId,
  station,
  actions,
}: {
  title: string;
  testId: string;
  station: StationBox;
  actions?: ReactNode;
}) {
  const { box } = station;
  return (
    <section aria-label={title} style={{ marginBottom: 12 }}>
      <Descriptions
        size="small"
        column={{ xs: 1, md: 4 }}
        items={[
          {
            key: 'code',
            label: title,
            children: <strong data-testid={testId}>{box.code}</strong>,
          },
          { key: 'kind', label: 'Holds', children: boxKind(box) },
          {
            key: 'status',
            label: 'Status',
            children: (
              <Tag color={INVENTORY_BOX_STATUS_COLORS[box.status]}>
                {box.status === 'locked' ? 'locked by a count' : box.status.replace('_', ' ')}
              </Tag>
            ),
          },
          { key: 'location', label: 'Location', children: box.location_code ?? '—' },
        ]}
      />
      <ExpectedFound
        tallies={[
          {
            key: 'fill',
            label: `In ${box.code}`,
            found: box.qty,
            expected: box.max_qty,
            testId: `${testId}-fill`,
          },
        ]}
      />
      {actions}
    </section>
  );
}

/** What a box holds, by IMEI. */
function BoxDevices({ station }: { station: StationBox }) {
  return (
    <Table
      size="small"
      rowKey="id"
      dataSource={station.devices}
      pagination={false}
      locale={{ emptyText: 'The box is empty.' }}
      columns={[
        { title: 'IMEI', dataIndex: 'identifier' },
        {
          title: 'Status',
          dataIndex: 'status',
          render: (status: StationDevice['status']) => <DeviceStatusTag status={status} />,
        },
        {
          title: 'Hold',
          dataIndex: 'hold_reason',
          render: (reason: StationDevice['hold_reason']) => <HoldTag reason={reason} />,
        },
      ]}
    />
  );
}

/** What a finished count found. */
function CountReport({ count }: { count: InventoryBoxCount }) {
  const clean = count.missing.length === 0 && count.extra.length === 0;
  return (
    <Alert
      data-testid="count-report"
      type={clean ? 'success' : 'warning'}
      showIcon
      style={{ marginBottom: 12 }}
      title={`Count of ${count.box_code} finished: ${count.counted.length} of ${count.expected} found, ${count.missing.length} missing, ${count.extra.length} extra.`}
      description={
        clean ? (
          'The box holds what it should.'
        ) : (
          <>
            {count.missing.length > 0 && <div>Missing: {count.missing.join(', ')}</div>}
            {count.extra.length > 0 && (
              <div>
                Extra:{' '}
                {count.extra
                  .map((unit) => `${unit.identifier} (${unit.box_code ?? 'no box'})`)
                  .join(', ')}
              </div>
            )}
            <div>Put the box right in add, remove or move mode.</div>
          </>
        )
      }
    />
  );
}

/**
 * The box scan station (DOMAIN.md 4.2), keyboard only, on the station toolkit: choose a mode, scan
 * a box (moving: the box to take from, then the box to put into), then scan devices. Each answer
 * is a badge in the log (added, duplicate, attribute mismatch, on hold, reserved …) and changes
 * the boxes shown as it says. Verify counts every device of a box for its running count and
 * finishes it with what is missing and extra.
 */
export default function BoxScanPage({ entry }: PageProps) {
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [chosen, setChosenState] = useState<Chosen>(() => chosenOf(params));
  // What the next scan reads when its turn comes: a box scanned just before it is chosen already.
  const chosenNow = useRef(chosen);
  const choose = (next: Chosen) => {
    chosenNow.current = next;
    setChosenState(next);
    setParams(
      (current) => {
        const changed = new URLSearchParams(current);
        for (const [key, value] of [
          ['mode', next.mode],
          ['box', next.box],
          ['from', next.from],
        ] as const) {
          if (value) changed.set(key, value);
          else changed.delete(key);
        }
        return changed;
      },
      { replace: true },
    );
  };
  const target = useStationBox(chosen.box);
  const from = useStationBox(chosen.from);
  const [station, setStation] = useStationName();
  const [lines, setLines] = useState<readonly ScanLine<BoxStationResult>[]>([]);
  const [report, setReport] = useState<InventoryBoxCount | null>(null);
  const scanField = useRef<InputRef>(null);
  const scanner = useWedgeScanner(scanField, true);
  const canReopen = useCan(BOX_SCAN_REOPEN_ACCESS);
  const reopen = useStationReopen();
  const startCount = useStartCount();
  const finishCount = useFinishCount();

  const queue = useScanQueue({
    send: async (code): Promise<Answered> => {
      const now = chosenNow.current;
      if (isBoxCode(code)) {
        const boxCode = code.trim().toUpperCase();
        if (now.mode === 'move' && boxCode === now.from) {
          throw new Error(`${boxCode} is the box to take from: scan the box to put into.`);
        }
        const read = await readStationBox(boxCode);
        client.setQueryData(stationBoxKey(read.box.code), read);
        setReport(null);
        if (now.mode === 'move' && !now.from) {
          choose({ ...now, from: read.box.code });
          return {
            result: 'box_chosen',
            code: read.box.code,
            message: `Taking devices out of ${read.box.code}: scan the box to put them into.`,
          };
        }
        choose({ ...now, box: read.box.code });
        return {
          result: 'box_chosen',
          code: read.box.code,
          message: `${MODE_WORDS[now.mode].prompt} ${read.box.code}.`,
        };
      }
      if (now.mode === 'move' && (!now.from || !now.box)) {
        throw new Error('Scan the box to take from, then the box to put into, then the devices.');
      }
      if (!now.box) throw new Error('Scan the box first, then the devices.');
      const answer = await boxScan({
        mode: now.mode,
        code,
        box_code: now.box,
        ...(now.from && { from_box_code: now.from }),
        station: station.trim(),
      });
      return { result: answer.result, code: answer.code, message: answer.message, scan: answer };
    },
    apply: async (answered: Answered) => {
      beep(BOX_SCAN_FEEDBACK.tones[answered.result]);
      setLines((current) => withAnswer(current, answered));
      const answer = answered.scan;
      if (!answer) return;
      await Promise.all(
        [answer.box, answer.from_box].flatMap((box) =>
          box
            ? [
                patchQuery<StationBox>(client, stationBoxKey(box.code), (current) =>
                  stationBoxAfter(current, answer),
                ),
              ]
            : [],
        ),
      );
    },
    failed: () => beep('error'),
  });

  const act = async (work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      showApiError(error);
    } finally {
      scanner.refocus();
    }
  };

  const setMode = (mode: BoxScanMode) => {
    const now = chosenNow.current;
    // Moving takes from the box chosen; leaving move mode keeps the box devices went into.
    choose(
      mode === 'move'
        ? { mode, from: now.box, box: null }
        : { mode, box: now.mode === 'move' ? (now.box ?? now.from) : now.box, from: null },
    );
    setReport(null);
    scanner.refocus();
  };

  const box = target.data;
  const count = box?.count ?? null;
  const prompt =
    chosen.mode === 'move' && !chosen.from
      ? 'Scan the box to take devices from'
      : !chosen.box
        ? chosen.mode === 'move'
          ? 'Scan the box to put devices into'
          : 'Scan the box'
        : `${MODE_WORDS[chosen.mode].prompt} ${chosen.box}`;

  /** Why the box cannot change now, and the way on. */
  const boxActions = (shown: StationBox) => {
    const { code, status, id } = shown.box;
    if (status === 'sealed' && chosen.mode !== 'verify') {
      return (
        <Alert
          type="warning"
          showIcon
          title={`${code} is sealed: it is reopened before devices go in or out.`}
          description={canReopen ? undefined : 'Ask someone who may reopen boxes (box.reopen).'}
          action={
            canReopen && (
              <Button
                onClick={() =>
                  void act(async () => {
                    await reopen.mutateAsync(code);
                    notify.success(`${code} is open again.`);
                  })
                }
                loading={reopen.isPending}
              >
                Reopen {code}
              </Button>
            )
          }
        />
      );
    }
    if (status === 'locked' && chosen.mode !== 'verify') {
      return (
        <Alert
          type="warning"
          showIcon
          title={`A count runs on ${code}: no device goes in or out until it is finished.`}
          action={<Button onClick={() => setMode('verify')}>Verify {code}</Button>}
        />
      );
    }
    if (chosen.mode === 'verify' && shown.box.code === chosen.box && !shown.count) {
      return (
        <Alert
          type="info"
          showIcon
          title={`No count runs on ${code}: start one to verify it. The box is locked until it is finished.`}
          action={
            status === 'sealed' || status === 'located' || status === 'partially_picked' ? (
              <Button
                onClick={() =>
                  void act(async () => {
                    await startCount.mutateAsync(id);
                    setReport(null);
                  })
                }
                loading={startCount.isPending}
              >
                Start count
              </Button>
            ) : undefined
          }
        />
      );
    }
    return null;
  };

  return (
    <section aria-label={entry.label}>
      <Typography.Title level={1} style={{ ...PAGE_TITLE_STYLE, marginBottom: 12 }}>
        {entry.label}
      </Typography.Title>
      {/* Buttons, not a radio group: a scan while one has the focus still reaches the scan field. */}
      <Space.Compact role="group" aria-label="Mode" style={{ marginBottom: 12 }}>
        {BOX_SCAN_MODES.map((mode) => (
          <Button
            key={mode}
            type={chosen.mode === mode ? 'primary' : 'default'}
            aria-pressed={chosen.mode === mode}
            onClick={() => setMode(mode)}
          >
            {MODE_WORDS[mode].label}
          </Button>
        ))}
      </Space.Compact>
      <Space wrap align="start" style={{ display: 'flex', marginBottom: 12 }}>
        <ScanInput
          ref={scanField}
          scanner={scanner}
          label="Scan a box or device"
          placeholder={prompt}
          onScan={queue.enqueue}
        />
        <StationNameInput station={station} onChange={setStation} onDone={scanner.refocus} />
        {(chosen.box || chosen.from) && (
          <Button
            onClick={() => {
              choose({ mode: chosen.mode, box: null, from: null });
              setReport(null);
              scanner.refocus();
            }}
          >
            Start over
          </Button>
        )}
      </Space>
      <Typography.Paragraph type="secondary" data-testid="station-prompt">
        {prompt}.
      </Typography.Paragraph>
      {report && <CountReport count={report} />}
      {[target, from].map(
        (read, index) =>
          read.isError && (
            <Alert
              key={index}
              type="error"
              showIcon
              style={{ marginBottom: 12 }}
              title={`${index === 0 ? chosen.box : chosen.from} could not be read.`}
              description={read.error.message}
            />
          ),
      )}
      {chosen.mode === 'move' && from.data && (
        <BoxPanel
          title="Take from"
          testId="from-box-code"
          station={from.data}
          actions={boxActions(from.data)}
        />
      )}
      {box && (
        <BoxPanel
          title={chosen.mode === 'move' ? 'Put into' : 'Box'}
          testId="box-code"
          station={box}
          actions={boxActions(box)}
        />
      )}
      {chosen.mode === 'verify' && count && (
        <section aria-label="Count" style={{ marginBottom: 12 }}>
          <ExpectedFound
            tallies={[
              {
                key: 'counted',
                label: 'Counted',
                found: count.counted.length,
                expected: count.expected,
                testId: 'count-counted',
              },
              {
                key: 'extra',
                label: 'Extra',
                found: count.extra.length,
                expected: null,
                testId: 'count-extra',
              },
            ]}
          />
          <Button
            type="primary"
            loading={finishCount.isPending}
            onClick={() =>
              void act(async () => {
                const finished = await finishCount.mutateAsync(count.id);
                setReport(finished.count);
                notify.success(`The count of ${finished.box.code} is finished.`);
              })
            }
          >
            Finish count of {count.box_code}
          </Button>
        </section>
      )}
      <StationColumns>
        <StationColumn title="Scans">
          <ScanLog
            lines={[...queue.queued.map(queuedLine), ...lines]}
            feedback={BOX_SCAN_FEEDBACK}
            empty="Scan a box, then its devices: each answer shows here."
          />
        </StationColumn>
        {chosen.mode === 'move' && from.data && (
          <StationColumn title={`In ${from.data.box.code}`}>
            <BoxDevices station={from.data} />
          </StationColumn>
        )}
        {chosen.mode === 'verify' && count ? (
          <StationColumn title={`Not counted yet in ${count.box_code}`}>
            {count.missing.length === 0 ? (
              <Empty description="Every device of the box is counted." />
            ) : (
              <ul aria-label="Not counted yet" data-testid="count-missing">
                {count.missing.map((imei) => (
                  <li key={imei}>{imei}</li>
                ))}
              </ul>
            )}
          </StationColumn>
        ) : (
          box && (
            <StationColumn title={`In ${box.box.code}`}>
              <BoxDevices station={box} />
            </StationColumn>
          )
        )}
      </StationColumns>
    </section>
  );
}
