import type { LeaderBox, PickerOption, ProductionBoxDevice } from '@inventory/contract';
import { Alert, Button, Drawer, Form, Select, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { notify } from '../../../shell/notify';
import { counted, when } from '../../../toolkit/format';
import { useBoxDevices, useReassign } from '../api/leader.queries';

/**
 * Moves a box's devices in production from one worker to another: all of that worker's, or the
 * ones ticked. The move names the worker they are taken from, so when another leader moved them
 * meanwhile the server says so (409) instead of moving them twice.
 */
export function ReassignDrawer({
  box,
  workers,
  onClose,
}: {
  box: LeaderBox;
  workers: readonly PickerOption[];
  onClose: () => void;
}) {
  const dialogFocus = useDialogFocus();
  const devices = useBoxDevices(box.id);
  const reassign = useReassign();
  const [from, setFrom] = useState<number | undefined>(box.workers[0]?.worker_id);
  const [to, setTo] = useState<number | undefined>();
  const [chosen, setChosen] = useState<number[]>([]);
  const theirs = (devices.data ?? []).filter((device) => device.worker_id === from);
  const fromName = box.workers.find((worker) => worker.worker_id === from)?.name;

  const move = async (deviceIds: number[] | null) => {
    if (from === undefined || to === undefined) {
      notify.error('Choose whose devices move and to whom.');
      return;
    }
    try {
      const answer = await reassign.mutateAsync({
        ...(deviceIds ? { device_ids: deviceIds } : { warehouse_box_id: box.id }),
        from_worker_id: from,
        worker_id: to,
      });
      const name = workers.find((worker) => worker.id === to)?.label;
      notify.success(`${counted(answer.devices, 'device')} of ${box.code} moved to ${name}.`);
      onClose();
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <Drawer {...dialogFocus} open size={640} title={`Reassign ${box.code}`} onClose={onClose}>
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          Devices still in production move to another worker; each move is on the device’s timeline.
        </Typography.Paragraph>
        {devices.isError && <Alert type="error" title={devices.error.message} />}
        <Form layout="vertical">
          <Space wrap align="start">
            <Form.Item label="From worker" htmlFor="reassign-from">
              <Select
                id="reassign-from"
                style={{ width: 220 }}
                value={from}
                onChange={(worker: number) => {
                  setFrom(worker);
                  setChosen([]);
                }}
                options={box.workers.map((worker) => ({
                  value: worker.worker_id,
                  label: `${worker.name} (${worker.devices})`,
                }))}
              />
            </Form.Item>
            <Form.Item label="To worker" htmlFor="reassign-to">
              <Select
                id="reassign-to"
                style={{ width: 220 }}
                value={to}
                placeholder="Worker"
                onChange={(worker: number) => setTo(worker)}
                options={workers
                  .filter((worker) => worker.id !== from)
                  .map((worker) => ({ value: worker.id, label: worker.label }))}
              />
            </Form.Item>
          </Space>
        </Form>
        <Space wrap>
          <Button
            type="primary"
            loading={reassign.isPending}
            disabled={theirs.length === 0}
            onClick={() => void move(null)}
          >
            Move all {theirs.length} of {fromName ?? 'the worker'}’s devices
          </Button>
          <Button
            loading={reassign.isPending}
            disabled={chosen.length === 0}
            onClick={() => void move(chosen)}
          >
            Move the {chosen.length} chosen
          </Button>
        </Space>
        <Table<ProductionBoxDevice>
          rowKey="id"
          size="small"
          aria-label={`Devices of ${box.code} in production`}
          loading={devices.isLoading}
          dataSource={theirs}
          pagination={false}
          locale={{ emptyText: 'No device of this worker in production.' }}
          rowSelection={{
            selectedRowKeys: chosen,
            onChange: (keys) => setChosen(keys as number[]),
            getCheckboxProps: (device) => ({ 'aria-label': `Choose ${device.identifier}` }),
          }}
          columns={[
            { title: 'IMEI', dataIndex: 'identifier' },
            { title: 'Worker', dataIndex: 'worker' },
            { title: 'Since', render: (_, device) => when(device.assigned_at) },
          ]}
        />
      </Space>
    </Drawer>
  );
}
