import { WORK_JOB_KIND_TEXT, type BoxScanResult, type WorkJobDetail } from '@inventory/contract';
import {
  Alert,
  Button,
  Card,
  Empty,
  Input,
  InputNumber,
  Segmented,
  Space,
  Spin,
  Statistic,
  Table,
  Typography,
  type InputRef,
} from 'antd';
import { useRef, useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { ApiError } from '../../../shell/http-client';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import {
  beep,
  ScanInput,
  ScanLog,
  useScanQueue,
  useStationName,
  useWedgeScanner,
  withAnswer,
  type ScanFeedback,
  type ScanLine,
} from '../../../toolkit/station';
import { BoxCounts, JobFacts, JobTimeline } from './job-parts';
import { countScan, useMyCounts, useMyJobs, useMyJobSteps, useRefreshJobs } from './jobs.queries';

/** What a count scan answers (the box station's verify mode), a box chosen, or a refusal. */
const COUNT_RESULTS = ['counted', 'extra', 'duplicate', 'not_found'] as const;
type CountResult = (typeof COUNT_RESULTS)[number] | 'box' | 'refused';
const isCountResult = (result: BoxScanResult): result is (typeof COUNT_RESULTS)[number] =>
  (COUNT_RESULTS as readonly string[]).includes(result);

const FEEDBACK: ScanFeedback<CountResult> = {
  tones: {
    counted: 'success',
    extra: 'warning',
    duplicate: 'info',
    not_found: 'error',
    box: 'info',
    refused: 'error',
  },
  words: {
    counted: 'Found',
    extra: 'Unexpected',
    duplicate: 'Counted already',
    not_found: 'Unknown',
    box: 'Box',
    refused: 'Refused',
  },
};

/**
 * The count station of one count job: choose the box (or scan its code), then scan its devices;
 * each is found, unexpected or counted already. Keyboard first, like every station.
 */
function CountStation({ detail }: { detail: WorkJobDetail }) {
  const [station] = useStationName();
  const boxes = detail.boxes.map((box) => box.code);
  const [boxCode, setBoxCode] = useState(boxes[0] ?? '');
  // The box the next scan counts in, set at once (a scanner is faster than a render).
  const held = useRef(boxCode);
  const [log, setLog] = useState<ScanLine<CountResult>[]>([]);
  const scanField = useRef<InputRef>(null);
  const scanner = useWedgeScanner(scanField, true);
  const refresh = useRefreshJobs();
  const choose = (code: string) => {
    held.current = code;
    setBoxCode(code);
  };

  type Answer = { code: string; result: CountResult; message: string };
  const send = async (code: string): Promise<Answer> => {
    const box = boxes.find((each) => each === code.toUpperCase());
    if (box) {
      choose(box);
      return { code, result: 'box', message: `Counting ${box}: scan its devices.` };
    }
    try {
      const answer = await countScan(detail.job.id, {
        box_code: held.current,
        code,
        station: station || undefined,
      });
      const { result, message } = answer.scan;
      return { code, result: isCountResult(result) ? result : 'refused', message };
    } catch (error) {
      if (error instanceof ApiError && [404, 409, 422].includes(error.status)) {
        return { code, result: 'refused', message: error.message };
      }
      throw error;
    }
  };
  const queue = useScanQueue({
    send,
    apply: (answer: Answer) => {
      beep(FEEDBACK.tones[answer.result]);
      setLog((lines) => withAnswer(lines, answer));
      void refresh();
    },
    failed: () => beep('error'),
  });

  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Segmented
        aria-label="Box to count"
        options={boxes}
        value={boxCode}
        onChange={(value) => choose(String(value))}
      />
      <ScanInput
        ref={scanField}
        scanner={scanner}
        label="Scan a device of the box"
        placeholder={`Scan an IMEI in ${boxCode}, or another box’s code`}
        onScan={queue.enqueue}
      />
      <ScanLog
        lines={log}
        feedback={FEEDBACK}
        empty="Scan the first IMEI: each answer shows here."
      />
    </Space>
  );
}

/** One of my jobs: its facts, its steps, its count station while it runs. */
function MyJob({ detail }: { detail: WorkJobDetail }) {
  const { start, finish, note } = useMyJobSteps();
  const [doneQty, setDoneQty] = useState<number | null>(null);
  const [noteText, setNoteText] = useState('');
  const { job } = detail;
  const act = (promise: Promise<unknown>, done: string) =>
    promise.then(() => notify.success(done)).catch((error: unknown) => showApiError(error));
  return (
    <Card
      title={`Job #${job.id} · ${job.title}`}
      extra={WORK_JOB_KIND_TEXT[job.kind]}
      aria-label={`Job ${job.id}`}
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <JobFacts job={job} />
        <Space wrap>
          {job.status === 'assigned' && (
            <Button
              type="primary"
              loading={start.isPending}
              onClick={() => act(start.mutateAsync(job.id), `Job #${job.id} started.`)}
            >
              Start
            </Button>
          )}
          {job.status === 'in_progress' && (
            <>
              {job.kind !== 'count' && (
                <InputNumber
                  aria-label="Units done"
                  placeholder="Units done"
                  min={0}
                  value={doneQty}
                  onChange={setDoneQty}
                />
              )}
              <Button
                type="primary"
                loading={finish.isPending}
                onClick={() =>
                  act(finish.mutateAsync({ id: job.id, doneQty }), `Job #${job.id} finished.`)
                }
              >
                Finish
              </Button>
            </>
          )}
          <Space.Compact>
            <Input
              aria-label="Note"
              placeholder="Add a note"
              value={noteText}
              onChange={(event) => setNoteText(event.target.value)}
            />
            <Button
              onClick={() =>
                act(note.mutateAsync({ id: job.id, note: noteText }), 'Note added.').then(() =>
                  setNoteText(''),
                )
              }
            >
              Add note
            </Button>
          </Space.Compact>
        </Space>
        {job.kind === 'count' && job.status === 'in_progress' && <CountStation detail={detail} />}
        {detail.boxes.length > 0 && <BoxCounts boxes={detail.boxes} />}
        <JobTimeline events={detail.events} />
      </Space>
    </Card>
  );
}

const ACTION_WORDS = (action: string) => action.replace(/_/g, ' ');

/** Today's units by action against my jobs' targets, and my days before. */
function MyCounts() {
  const counts = useMyCounts();
  if (!counts.data) return <Spin />;
  const { today_counts: today, target_qty: target, done_qty: done, history } = counts.data;
  return (
    <Card title={`Today (${counts.data.today})`}>
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Space size="large" wrap>
          <Statistic title="Units today" value={today.reduce((sum, row) => sum + row.qty, 0)} />
          <Statistic
            title="My jobs: done"
            value={done}
            suffix={target ? `of ${target}` : undefined}
          />
        </Space>
        <Table
          size="small"
          aria-label="Today by action"
          rowKey="action"
          pagination={false}
          dataSource={today}
          locale={{ emptyText: 'No work counted today yet.' }}
          columns={[
            { title: 'Action', dataIndex: 'action', render: ACTION_WORDS },
            { title: 'Units', dataIndex: 'qty' },
            { title: 'Rework', dataIndex: 'rework' },
          ]}
        />
        <Typography.Title level={5}>History (30 days)</Typography.Title>
        <Table
          size="small"
          aria-label="History"
          rowKey={(row) => `${row.day}-${row.action}`}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          dataSource={history}
          columns={[
            { title: 'Day', dataIndex: 'day' },
            { title: 'Action', dataIndex: 'action', render: ACTION_WORDS },
            { title: 'Units', dataIndex: 'qty' },
            { title: 'Rework', dataIndex: 'rework' },
          ]}
        />
      </Space>
    </Card>
  );
}

/** My work (`/report/work`, DOMAIN.md 4.11): my jobs and my counts, nobody else's. */
export default function MyWorkPage({ entry }: PageProps) {
  const jobs = useMyJobs();
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Your assigned jobs: start one, do it, finish it. A count job is counted here, box by box.
      </Typography.Paragraph>
      {jobs.error && <Alert type="error" title={String(jobs.error)} />}
      {!jobs.data ? (
        <Spin />
      ) : jobs.data.length === 0 ? (
        <Empty description="No jobs assigned to you." />
      ) : (
        jobs.data.map((detail) => <MyJob key={detail.job.id} detail={detail} />)
      )}
      <MyCounts />
    </Space>
  );
}
