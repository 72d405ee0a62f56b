import type { Failure, LeaderBox } from '@inventory/contract';
import { Alert, Button, InputNumber, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { when } from '../../../toolkit/format';
import {
  useAssignBox,
  useLeaderBoxes,
  useProductionFailures,
  useProductionWorkers,
} from '../api/leader.queries';
import { ReassignDrawer } from '../components/reassign-drawer';
import { RegradeDrawer } from '../components/regrade-drawer';

/** What the leader chose for one box: the worker and, for part of the box, how many devices. */
type Choice = { worker?: number; qty?: number | null };

/** The re-grade drawer, open for a failure's IMEI or for one to scan (code null). */
type Regrading = { code: string | null };

const SECTION_TITLE_STYLE = { fontSize: 18, marginTop: 24 } as const;

/**
 * The production leader's console (DOMAIN.md 4.17): the boxes of approved requests, the handing
 * of a box (all its waiting devices, or N of them) to a worker, the moving of devices between
 * workers, and the review of failures: a failed or graded device goes back to a worker for a
 * re-grade, with the reason.
 */
export default function LeaderPage({ entry }: PageProps) {
  const boxes = useLeaderBoxes();
  const workers = useProductionWorkers();
  const failures = useProductionFailures();
  const assign = useAssignBox();
  const [choices, setChoices] = useState<Record<number, Choice>>({});
  const [reassigning, setReassigning] = useState<LeaderBox | null>(null);
  const [regrading, setRegrading] = useState<Regrading | null>(null);
  const choose = (box: number, choice: Choice) =>
    setChoices((all) => ({ ...all, [box]: { ...all[box], ...choice } }));

  const handOut = async (box: LeaderBox) => {
    const choice = choices[box.id] ?? {};
    if (!choice.worker) {
      notify.error(`Choose the worker for ${box.code}.`);
      return;
    }
    try {
      const answer = await assign.mutateAsync({
        warehouse_box_id: box.id,
        worker_id: choice.worker,
        ...(choice.qty ? { qty: choice.qty } : {}),
      });
      const name = workers.data?.find((worker) => worker.id === choice.worker)?.label;
      notify.success(`${answer.devices} devices of ${box.code} handed to ${name}.`);
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <div>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      {boxes.isError && <Alert type="error" title={boxes.error.message} />}
      <Table<LeaderBox>
        rowKey="id"
        size="small"
        loading={boxes.isLoading}
        dataSource={boxes.data ?? []}
        pagination={false}
        locale={{ emptyText: 'No box of an approved request.' }}
        columns={[
          { title: 'Box', dataIndex: 'code' },
          { title: 'Request', dataIndex: 'request_number' },
          { title: 'Model', dataIndex: 'model' },
          { title: 'Priority', dataIndex: 'priority' },
          { title: 'Waiting', dataIndex: 'waiting' },
          { title: 'In production', dataIndex: 'in_production' },
          { title: 'Done', dataIndex: 'done' },
          {
            title: 'Workers',
            render: (_, box) =>
              box.workers.map((worker) => `${worker.name}: ${worker.devices}`).join(', ') || '—',
          },
          {
            title: 'Hand out',
            render: (_, box) =>
              box.waiting > 0 && (
                <Space>
                  <Select
                    aria-label={`Worker for ${box.code}`}
                    placeholder="Worker"
                    style={{ width: 180 }}
                    value={choices[box.id]?.worker}
                    onChange={(worker: number) => choose(box.id, { worker })}
                    options={(workers.data ?? []).map((worker) => ({
                      value: worker.id,
                      label: worker.label,
                    }))}
                  />
                  <InputNumber
                    aria-label={`Devices of ${box.code}`}
                    placeholder={`All ${box.waiting}`}
                    min={1}
                    max={box.waiting}
                    precision={0}
                    value={choices[box.id]?.qty ?? null}
                    onChange={(qty) => choose(box.id, { qty })}
                  />
                  <Button loading={assign.isPending} onClick={() => void handOut(box)}>
                    Assign {box.code}
                  </Button>
                </Space>
              ),
          },
          {
            title: 'Reassign',
            render: (_, box) =>
              box.in_production > 0 && (
                <Button onClick={() => setReassigning(box)}>Reassign {box.code}</Button>
              ),
          },
        ]}
      />

      <Typography.Title level={2} style={SECTION_TITLE_STYLE}>
        Failures to review
      </Typography.Title>
      <Space style={{ marginBottom: 12 }}>
        <Button onClick={() => setRegrading({ code: null })}>Re-grade a device by IMEI</Button>
      </Space>
      {failures.isError && <Alert type="error" title={failures.error.message} />}
      <Table<Failure>
        rowKey="device_id"
        size="small"
        aria-label="Failures to review"
        loading={failures.isLoading}
        dataSource={failures.data ?? []}
        pagination={false}
        locale={{ emptyText: 'No device failed QC in an open request.' }}
        columns={[
          { title: 'IMEI', dataIndex: 'identifier' },
          { title: 'Model', dataIndex: 'model' },
          { title: 'Box', render: (_, row) => row.box ?? '—' },
          { title: 'Request', dataIndex: 'request_number' },
          { title: 'Worker', dataIndex: 'worker' },
          {
            title: 'Issue codes',
            render: (_, row) => row.issue_codes.map((code) => <Tag key={code}>{code}</Tag>),
          },
          {
            title: 'Battery',
            render: (_, row) => (row.battery_health === null ? '—' : `${row.battery_health}%`),
          },
          { title: 'Notes', render: (_, row) => row.cosmetic_notes ?? '—' },
          { title: 'Tested', render: (_, row) => when(row.tested_at) },
          {
            title: 'Review',
            render: (_, row) => (
              <Button onClick={() => setRegrading({ code: row.identifier })}>
                Re-grade {row.identifier}
              </Button>
            ),
          },
        ]}
      />
      {reassigning && (
        <ReassignDrawer
          box={reassigning}
          workers={workers.data ?? []}
          onClose={() => setReassigning(null)}
        />
      )}
      {regrading && (
        <RegradeDrawer
          code={regrading.code}
          workers={workers.data ?? []}
          onClose={() => setRegrading(null)}
        />
      )}
    </div>
  );
}
