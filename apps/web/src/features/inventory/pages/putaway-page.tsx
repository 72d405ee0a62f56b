import {
  PALLET_MAX_BOXES,
  UNASSIGN_NOTE_MAX,
  UNASSIGN_REASON_WORDS,
  UNASSIGN_REASONS,
  type InventoryBox,
  type PutawaySuggestion,
  type UnassignReason,
} from '@inventory/contract';
import { Alert, Button, Descriptions, Input, Space, Table, Typography, type InputRef } from 'antd';
import { useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { when } from '../../../toolkit/format';
import {
  beep,
  queuedLine,
  ScanInput,
  ScanLog,
  StationColumn,
  StationColumns,
  useScanQueue,
  useWedgeScanner,
  type ScanLine,
  withAnswer,
} from '../../../toolkit/station';
import { putawaySuggestion, usePutAway, usePutawayQueue } from '../api/inventory.queries';
import { putawayBox, useMoveBox, usePalletPutaway, useUnassignBox } from '../api/putaway.queries';
import { boxKind, isBoxCode } from '../consolidation-feedback';
import {
  boxesText,
  palletRefusal,
  PUTAWAY_FEEDBACK,
  PUTAWAY_MODE_WORDS,
  PUTAWAY_MODES,
  type PutawayMode,
  type PutawayResult,
} from '../putaway-modes';

/** The log keeps this tab's latest answers. */

type Answer = { result: PutawayResult; code: string; message: string };

/** What the station holds between scans; each scan reads it when its turn comes. */
type Station = {
  mode: PutawayMode;
  /** Put away: the sealed box waiting for its location scan. */
  waiting: string | null;
  /** Pallet: the boxes scanned, in order. */
  pallet: readonly string[];
  /** Move: the box to move and the location it was read in. */
  moving: { code: string; from: string } | null;
  /** Unassign: why boxes come off their location, and a note for "other". */
  reason: UnassignReason | null;
  note: string;
};

const modeOf = (params: URLSearchParams): PutawayMode =>
  PUTAWAY_MODES.find((mode) => mode === params.get('mode')) ?? 'putaway';

const statusText = (box: InventoryBox) => box.status.replace(/_/g, ' ');

/** A box scanned to move that is on no shelf: why it cannot move, and the way on. */
const notOnShelf = (box: InventoryBox) =>
  box.status === 'sealed'
    ? `${box.code} is sealed and not put away yet: put it away in Put away mode.`
    : `${box.code} is ${statusText(box)}: it has no location to move from.`;

/** Buttons, not a radio group: a scan typed while one has the focus still reaches the scan field. */
function PressedButtons<V extends string>({
  label,
  values,
  chosen,
  words,
  onChoose,
}: {
  label: string;
  values: readonly V[];
  chosen: V | null;
  words: (value: V) => string;
  onChoose: (value: V) => void;
}) {
  return (
    <Space.Compact role="group" aria-label={label}>
      {values.map((value) => (
        <Button
          key={value}
          type={chosen === value ? 'primary' : 'default'}
          aria-pressed={chosen === value}
          onClick={() => onChoose(value)}
        >
          {words(value)}
        </Button>
      ))}
    </Space.Compact>
  );
}

/**
 * Putaway (DOMAIN.md 4.2), keyboard only, in four modes. Put away: scan a sealed box and the
 * server suggests a location (its model and grade's zone first, then the nearest empty bin);
 * scanning the location confirms it there (sealed → located). Pallet: scan up to 50 sealed boxes,
 * then one location: all go there or none (each refusal named). Move: scan a located box, then
 * the location it goes to. Unassign: choose the reason, then scan located boxes: each goes back
 * to the queue. A refusal (inactive, full, quarantine) is shown on its line.
 */
export default function PutawayPage({ entry }: PageProps) {
  const queue = usePutawayQueue();
  const putAway = usePutAway();
  const move = useMoveBox();
  const unassign = useUnassignBox();
  const palletPutaway = usePalletPutaway();
  const [params, setParams] = useSearchParams();
  const [station, setStationState] = useState<Station>(() => ({
    mode: modeOf(params),
    waiting: null,
    pallet: [],
    moving: null,
    reason: null,
    note: '',
  }));
  // What the next scan reads when its turn comes: a scan just before it has changed it already.
  const stationNow = useRef(station);
  const update = (patch: Partial<Station>) => {
    stationNow.current = { ...stationNow.current, ...patch };
    setStationState(stationNow.current);
  };
  const [suggestion, setSuggestion] = useState<PutawaySuggestion | null>(null);
  const [lines, setLines] = useState<readonly ScanLine<PutawayResult>[]>([]);
  const scanField = useRef<InputRef>(null);
  const scanner = useWedgeScanner(scanField, true);

  const sendPutaway = async (code: string): Promise<Answer> => {
    if (isBoxCode(code)) {
      const suggested = await putawaySuggestion(code);
      update({ waiting: suggested.box.code });
      setSuggestion(suggested);
      return {
        result: 'suggested',
        code: suggested.box.code,
        message: suggested.location
          ? `Put it in ${suggested.location.code}: ${suggested.reason}`
          : suggested.reason,
      };
    }
    const waiting = stationNow.current.waiting;
    if (!waiting) throw new Error('Scan a sealed box first, then its location.');
    const { box, already } = await putAway.mutateAsync({ boxCode: waiting, locationCode: code });
    update({ waiting: null });
    setSuggestion(null);
    return {
      result: already ? 'already' : 'located',
      code: box.code,
      message: `${box.code} is in ${box.location_code}.`,
    };
  };

  const sendPallet = async (code: string): Promise<Answer> => {
    if (isBoxCode(code)) {
      const boxCode = code.trim().toUpperCase();
      const refusal = palletRefusal(stationNow.current.pallet, boxCode);
      if (refusal) throw new Error(refusal);
      const suggested = await putawaySuggestion(boxCode, stationNow.current.pallet.length + 1);
      const pallet = [...stationNow.current.pallet, suggested.box.code];
      update({ pallet });
      setSuggestion(suggested);
      return {
        result: 'on_pallet',
        code: suggested.box.code,
        message: `${boxesText(pallet.length)} on the pallet. ${
          suggested.location
            ? `Put them in ${suggested.location.code}: ${suggested.reason}`
            : suggested.reason
        }`,
      };
    }
    const pallet = stationNow.current.pallet;
    if (pallet.length === 0)
      throw new Error('Scan the boxes of the pallet first, then the location.');
    const done = await palletPutaway.mutateAsync({ boxCodes: pallet, locationCode: code });
    update({ pallet: [] });
    setSuggestion(null);
    const placed = done.boxes.length - done.already.length;
    return {
      result: placed === 0 ? 'already' : 'pallet_located',
      code: done.location_code,
      message:
        placed === 0
          ? `The pallet's ${boxesText(done.already.length)} are in ${done.location_code} already.`
          : `${boxesText(placed)} put away in ${done.location_code}${
              done.already.length > 0 ? ` (${done.already.length} there already)` : ''
            }: ${done.boxes.map((box) => box.code).join(', ')}.`,
    };
  };

  const sendMove = async (code: string): Promise<Answer> => {
    if (isBoxCode(code)) {
      const box = await putawayBox(code);
      if (!box.location_code) throw new Error(notOnShelf(box));
      update({ moving: { code: box.code, from: box.location_code } });
      return {
        result: 'box_chosen',
        code: box.code,
        message: `${box.code} is in ${box.location_code}: scan the location to move it to.`,
      };
    }
    const moving = stationNow.current.moving;
    if (!moving) throw new Error('Scan the box to move first, then the location it goes to.');
    const moved = await move.mutateAsync({
      boxCode: moving.code,
      fromCode: moving.from,
      locationCode: code,
    });
    update({ moving: null });
    return moved.already
      ? {
          result: 'already',
          code: moved.box.code,
          message: `${moved.box.code} is in ${moved.box.location_code} already.`,
        }
      : {
          result: 'moved',
          code: moved.box.code,
          message: `${moved.box.code} moved from ${moved.from_location_code} to ${moved.box.location_code}.`,
        };
  };

  const sendUnassign = async (code: string): Promise<Answer> => {
    if (!isBoxCode(code)) throw new Error('Scan a box (IB-…) to take off its location.');
    const { reason, note } = stationNow.current;
    if (!reason) throw new Error('Choose why the box comes off its location first.');
    if (reason === 'other' && !note.trim()) throw new Error('Say why in the note first.');
    const off = await unassign.mutateAsync({ boxCode: code, reason, note });
    return off.already
      ? {
          result: 'already',
          code: off.box.code,
          message: `${off.box.code} has no location already: it waits for putaway.`,
        }
      : {
          result: 'unassigned',
          code: off.box.code,
          message: `${off.box.code} is off ${off.from_location_code} (${UNASSIGN_REASON_WORDS[reason].toLowerCase()}): it waits for putaway again.`,
        };
  };

  const SEND: Record<PutawayMode, (code: string) => Promise<Answer>> = {
    putaway: sendPutaway,
    pallet: sendPallet,
    move: sendMove,
    unassign: sendUnassign,
  };

  const scans = useScanQueue({
    send: (code) => SEND[stationNow.current.mode](code),
    apply: (answer: Answer) => {
      beep(PUTAWAY_FEEDBACK.tones[answer.result]);
      setLines((current) => withAnswer(current, answer));
    },
    failed: () => beep('error'),
  });

  const setMode = (mode: PutawayMode) => {
    // A box half done (waiting for its location, chosen to move) is left; the pallet stays.
    update({ mode, waiting: null, moving: null });
    setSuggestion(null);
    setParams(
      (current) => {
        const changed = new URLSearchParams(current);
        changed.set('mode', mode);
        return changed;
      },
      { replace: true },
    );
    scanner.refocus();
  };

  const { mode, pallet, moving, reason } = station;
  const prompt =
    mode === 'putaway' && station.waiting
      ? `Scan the location for ${station.waiting}`
      : mode === 'pallet' && pallet.length > 0
        ? `Scan another box, or the location for the ${boxesText(pallet.length)}`
        : mode === 'move' && moving
          ? `Scan the location to move ${moving.code} to (it is in ${moving.from})`
          : mode === 'unassign' && !reason
            ? 'Choose the reason, then scan a box to take off its location'
            : PUTAWAY_MODE_WORDS[mode].prompt;

  return (
    <section aria-label={entry.label}>
      <Typography.Title level={1} style={{ ...PAGE_TITLE_STYLE, marginBottom: 12 }}>
        {entry.label}
      </Typography.Title>
      <div style={{ marginBottom: 12 }}>
        <PressedButtons
          label="Mode"
          values={PUTAWAY_MODES}
          chosen={mode}
          words={(value) => PUTAWAY_MODE_WORDS[value].label}
          onChoose={setMode}
        />
      </div>
      {mode === 'unassign' && (
        <Space wrap align="center" style={{ display: 'flex', marginBottom: 12 }}>
          <PressedButtons
            label="Reason"
            values={UNASSIGN_REASONS}
            chosen={reason}
            words={(value) => UNASSIGN_REASON_WORDS[value]}
            onChoose={(value) => {
              update({ reason: value });
              scanner.refocus();
            }}
          />
          {reason === 'other' && (
            <Input
              aria-label="Note"
              placeholder="Why it comes off its location"
              maxLength={UNASSIGN_NOTE_MAX}
              value={station.note}
              onChange={(event) => update({ note: event.target.value })}
              onPressEnter={scanner.refocus}
              style={{ width: 320 }}
            />
          )}
        </Space>
      )}
      <Space wrap align="start" style={{ display: 'flex', marginBottom: 12 }}>
        <ScanInput
          ref={scanField}
          scanner={scanner}
          label="Scan a box or location"
          placeholder={prompt}
          onScan={scans.enqueue}
        />
        {((mode === 'putaway' && station.waiting) || (mode === 'move' && moving)) && (
          <Button
            onClick={() => {
              update({ waiting: null, moving: null });
              setSuggestion(null);
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
      {suggestion && (mode === 'putaway' || mode === 'pallet') && (
        <Alert
          type={suggestion.location ? 'info' : 'warning'}
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="suggestion"
          title={
            suggestion.location
              ? `Suggested: ${suggestion.location.code}`
              : mode === 'pallet'
                ? `No location for the ${boxesText(pallet.length)}`
                : `No location for ${suggestion.box.code}`
          }
          description={
            <Descriptions
              size="small"
              column={1}
              items={[
                {
                  key: 'box',
                  label: mode === 'pallet' ? 'Last box' : 'Box',
                  children: suggestion.box.code,
                },
                { key: 'kind', label: 'Holds', children: boxKind(suggestion.box) },
                { key: 'why', label: 'Why', children: suggestion.reason },
              ]}
            />
          }
        />
      )}
      {mode === 'pallet' && (
        <section aria-label="Pallet" style={{ marginBottom: 12 }}>
          <Space wrap align="center" style={{ marginBottom: 8 }}>
            <Typography.Text strong data-testid="pallet-count">
              On the pallet: {pallet.length} of {PALLET_MAX_BOXES}
            </Typography.Text>
            {pallet.length > 0 && (
              <Button
                onClick={() => {
                  update({ pallet: [] });
                  setSuggestion(null);
                  scanner.refocus();
                }}
              >
                Clear the pallet
              </Button>
            )}
          </Space>
          {pallet.length > 0 && (
            <Table<{ code: string }>
              size="small"
              rowKey="code"
              pagination={false}
              dataSource={pallet.map((code) => ({ code }))}
              columns={[
                { title: 'Box', dataIndex: 'code' },
                {
                  title: 'Action',
                  render: (_, row) => (
                    <Button
                      size="small"
                      onClick={() => {
                        update({
                          pallet: stationNow.current.pallet.filter((code) => code !== row.code),
                        });
                        scanner.refocus();
                      }}
                    >
                      Take {row.code} off the pallet
                    </Button>
                  ),
                },
              ]}
            />
          )}
        </section>
      )}
      <StationColumns>
        <StationColumn title="Scans">
          <ScanLog
            lines={[...scans.queued.map(queuedLine), ...lines]}
            feedback={PUTAWAY_FEEDBACK}
            empty="Scan a box: what happened shows here."
          />
        </StationColumn>
        <StationColumn title="Waiting for putaway">
          <Table<InventoryBox>
            size="small"
            rowKey="id"
            loading={queue.isLoading}
            dataSource={queue.data ?? []}
            pagination={false}
            columns={[
              { title: 'Box', dataIndex: 'code' },
              { title: 'Holds', render: (_, row) => boxKind(row) },
              { title: 'Devices', dataIndex: 'qty' },
              { title: 'Sealed', render: (_, row) => when(row.sealed_at) },
            ]}
          />
        </StationColumn>
      </StationColumns>
    </section>
  );
}
