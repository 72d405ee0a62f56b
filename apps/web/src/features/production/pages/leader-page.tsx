import type { LeaderBox } from '@inventory/contract';
import { Alert, Button, InputNumber, Select, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useAssignBox, useLeaderBoxes, useProductionWorkers } from '../api/leader.queries';

/** What the leader chose for one box: the worker and, for part of the box, how many devices. */
type Choice = { worker?: number; qty?: number | null };

/**
 * The production leader's console (DOMAIN.md 4.17): the boxes of approved requests, and the
 * handing of a box (all its waiting devices, or N of them) to a worker.
 */
export default function LeaderPage({ entry }: PageProps) {
  const boxes = useLeaderBoxes();
  const workers = useProductionWorkers();
  const assign = useAssignBox();
  const [choices, setChoices] = useState<Record<number, Choice>>({});
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
        ]}
      />
    </div>
  );
}
