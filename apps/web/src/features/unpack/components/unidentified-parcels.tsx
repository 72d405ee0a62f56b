import type { UnidentifiedParcel } from '@inventory/contract';
import { Button, Card, Form, Input, Space, Table } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { when } from '../../../toolkit/format';
import { useAddUnidentified, useUnidentifiedParcels } from '../api/unpack.queries';

/** A parcel nobody could identify, put aside in a bin with what it holds. */
export function UnidentifiedForm({
  code,
  station,
  onDone,
}: {
  code: string;
  station: string;
  onDone: () => void;
}) {
  const add = useAddUnidentified();
  const [form] = Form.useForm<{ location: string; contents?: string; notes?: string }>();
  return (
    <Card size="small" title={`Put ${code} aside as unidentified`}>
      <Form
        form={form}
        layout="inline"
        onFinish={async (values) => {
          try {
            const row = await add.mutateAsync({
              code,
              location: values.location,
              contents: values.contents ?? null,
              notes: values.notes ?? null,
              ...(station.trim() && { station: station.trim() }),
            });
            notify.success(`${row.code} is in bin ${row.location}.`);
            form.resetFields();
            onDone();
          } catch (error) {
            showApiError(error, form);
          }
        }}
      >
        <Form.Item
          name="location"
          label="Bin or location"
          rules={[{ required: true, message: 'Say where the parcel goes.' }]}
        >
          <Input maxLength={60} />
        </Form.Item>
        <Form.Item name="contents" label="What it holds">
          <Input maxLength={1000} />
        </Form.Item>
        <Form.Item name="notes" label="Notes">
          <Input maxLength={1000} />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={add.isPending}>
            Put aside
          </Button>
          <Button onClick={onDone}>Not now</Button>
        </Space>
      </Form>
    </Card>
  );
}

/** The unidentified parcels, newest first, searched by code, bin or words. */
export function UnidentifiedSearch() {
  const [q, setQ] = useState('');
  const parcels = useUnidentifiedParcels(q);
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Input.Search
        aria-label="Search unidentified parcels"
        placeholder="Code, bin or words"
        allowClear
        style={{ maxWidth: 360 }}
        onSearch={(value) => setQ(value.trim())}
      />
      <Table<UnidentifiedParcel>
        size="small"
        rowKey="id"
        loading={parcels.isLoading}
        dataSource={parcels.data ?? []}
        pagination={false}
        data-testid="unidentified-parcels"
        columns={[
          { key: 'code', title: 'Code', dataIndex: 'code' },
          { key: 'location', title: 'Bin', dataIndex: 'location' },
          { key: 'contents', title: 'Holds', render: (_, row) => row.contents ?? '' },
          { key: 'notes', title: 'Notes', render: (_, row) => row.notes ?? '' },
          { key: 'found', title: 'Put aside', render: (_, row) => when(row.found_at) },
          { key: 'by', title: 'By', render: (_, row) => row.found_by_name ?? '' },
        ]}
      />
    </Space>
  );
}
