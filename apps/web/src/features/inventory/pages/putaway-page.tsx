import type { InventoryBox, PutawaySuggestion } from '@inventory/contract';
import { Alert, Descriptions, Space, Table, Typography, type InputRef } from 'antd';
import { useRef, useState } from 'react';
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
  type ScanFeedback,
  type ScanLine,
} from '../../../toolkit/station';
import { putawaySuggestion, usePutAway, usePutawayQueue } from '../api/inventory.queries';
import { boxKind, isBoxCode } from '../consolidation-feedback';

type PutawayResult = 'suggested' | 'located' | 'already';

const FEEDBACK: ScanFeedback<PutawayResult> = {
  tones: { suggested: 'info', located: 'success', already: 'info' },
  words: { suggested: 'Scan the location', located: 'Put away', already: 'Already there' },
};

type Answer = { result: PutawayResult; code: string; message: string };

/**
 * Putaway (DOMAIN.md 4.2), keyboard only: scan a sealed box and the server suggests a location
 * (its model and grade's zone first, then the nearest empty bin); scanning the location confirms
 * it there (sealed → located). A refusal (inactive, full, quarantine) is shown on its line.
 */
export default function PutawayPage({ entry }: PageProps) {
  const queue = usePutawayQueue();
  const putAway = usePutAway();
  const [suggestion, setSuggestion] = useState<PutawaySuggestion | null>(null);
  // The box waiting for its location scan: read by the next scan when its turn comes.
  const waiting = useRef<string | null>(null);
  const [lines, setLines] = useState<readonly ScanLine<PutawayResult>[]>([]);
  const scanField = useRef<InputRef>(null);
  const scanner = useWedgeScanner(scanField, true);

  const scans = useScanQueue({
    send: async (code): Promise<Answer> => {
      if (isBoxCode(code)) {
        const suggested = await putawaySuggestion(code);
        waiting.current = suggested.box.code;
        setSuggestion(suggested);
        return {
          result: 'suggested',
          code: suggested.box.code,
          message: suggested.location
            ? `Put it in ${suggested.location.code}: ${suggested.reason}`
            : suggested.reason,
        };
      }
      if (!waiting.current) throw new Error('Scan a sealed box first, then its location.');
      const { box, already } = await putAway.mutateAsync({
        boxCode: waiting.current,
        locationCode: code,
      });
      waiting.current = null;
      setSuggestion(null);
      return {
        result: already ? 'already' : 'located',
        code: box.code,
        message: `${box.code} is in ${box.location_code}.`,
      };
    },
    apply: (answer: Answer) => {
      beep(FEEDBACK.tones[answer.result]);
      setLines((current) =>
        [
          {
            key: `answer-${Date.now()}-${current.length}`,
            code: answer.code,
            at: new Date().toISOString(),
            result: answer.result,
            message: answer.message,
          },
          ...current,
        ].slice(0, 50),
      );
    },
    failed: () => beep('error'),
  });

  return (
    <section aria-label={entry.label}>
      <Typography.Title level={1} style={{ ...PAGE_TITLE_STYLE, marginBottom: 12 }}>
        {entry.label}
      </Typography.Title>
      <Space wrap align="start" style={{ marginBottom: 12 }}>
        <ScanInput
          ref={scanField}
          scanner={scanner}
          label="Scan a box or location"
          placeholder={
            suggestion ? `Scan the location for ${suggestion.box.code}` : 'Scan a sealed box (IB-…)'
          }
          onScan={scans.enqueue}
        />
      </Space>
      {suggestion && (
        <Alert
          type={suggestion.location ? 'info' : 'warning'}
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="suggestion"
          title={
            suggestion.location
              ? `Suggested: ${suggestion.location.code}`
              : `No location for ${suggestion.box.code}`
          }
          description={
            <Descriptions
              size="small"
              column={1}
              items={[
                { key: 'box', label: 'Box', children: suggestion.box.code },
                { key: 'kind', label: 'Holds', children: boxKind(suggestion.box) },
                { key: 'why', label: 'Why', children: suggestion.reason },
              ]}
            />
          }
        />
      )}
      <StationColumns>
        <StationColumn title="Scans">
          <ScanLog
            lines={[...scans.queued.map(queuedLine), ...lines]}
            feedback={FEEDBACK}
            empty="Scan a sealed box: where it should go shows here."
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
