import {
  INVOICE_IMEI_VIEW_ACCESS,
  INVOICE_MANAGE_ACCESS,
  purchaseInvoiceAttachments,
  type InvoiceLine,
  type PurchaseInvoice,
  type Reconciliation,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Descriptions,
  Drawer,
  Popconfirm,
  Space,
  Spin,
  Statistic,
  Table,
  Typography,
} from 'antd';
import { useState } from 'react';
import { ApiError } from '../../../shell/http-client';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { useCan } from '../../../shell/use-can';
import { AttachmentsPanel } from '../../../toolkit/attachments-panel';
import { dollars, when } from '../../../toolkit/format';
import { useInvoiceDetail, useInvoiceSteps } from '../api/invoices.queries';
import { Discrepancies } from './discrepancies';
import { InvoiceStatusTag } from './invoice-status';
import { useDialogFocus } from '../../../shell/dialog-focus';

const COUNTS: ReadonlyArray<readonly [keyof Reconciliation, string]> = [
  ['manifest', 'On the manifest'],
  ['expected', 'Expected'],
  ['received', 'Received'],
  ['missing', 'Missing'],
  ['unexpected', 'Unexpected'],
  ['duplicate', 'Duplicate'],
  ['mismatched', 'Model mismatch'],
  ['undecided', 'Needing a decision'],
];

/** Expected, received, missing, unexpected, duplicate and mismatched IMEIs, in figures. */
function ReconciliationFigures({ counts }: { counts: Reconciliation }) {
  return (
    <Space wrap size="large" data-testid="reconciliation">
      {COUNTS.map(([key, title]) => (
        <Statistic
          key={key}
          title={title}
          value={counts[key]}
          styles={
            counts[key] > 0 && (key === 'undecided' || key === 'missing' || key === 'unexpected')
              ? { content: { color: '#b42318' } }
              : undefined
          }
        />
      ))}
    </Space>
  );
}

const lineColumns = [
  { key: 'model', dataIndex: 'model', title: 'Model' },
  {
    key: 'color',
    title: 'Colour',
    render: (_: unknown, line: InvoiceLine) => line.color ?? '—',
  },
  {
    key: 'capacity',
    title: 'Capacity',
    render: (_: unknown, line: InvoiceLine) =>
      line.capacity_gb === null ? '—' : `${line.capacity_gb} GB`,
  },
  { key: 'condition', dataIndex: 'condition', title: 'Condition' },
  { key: 'grade', title: 'Grade', render: (_: unknown, line: InvoiceLine) => line.grade ?? '—' },
  { key: 'qty', dataIndex: 'qty', title: 'Ordered' },
  { key: 'manifest_count', dataIndex: 'manifest_count', title: 'On manifest' },
  { key: 'received_count', dataIndex: 'received_count', title: 'Received' },
  {
    key: 'unit_cost',
    title: 'Unit cost',
    render: (_: unknown, line: InvoiceLine) => dollars(line.unit_cost_cents),
  },
  {
    key: 'line_total',
    title: 'Line total',
    render: (_: unknown, line: InvoiceLine) => dollars(line.qty * line.unit_cost_cents),
  },
];

/** The steps the invoice's status allows: reconcile until it closes, close once reconciled. */
function InvoiceSteps({
  invoice,
  onEdit,
  onRefused,
}: {
  invoice: PurchaseInvoice;
  onEdit: () => void;
  onRefused: (message: string | null) => void;
}) {
  const steps = useInvoiceSteps(invoice.id);
  const take = async (step: 'reconcile' | 'close', done: string) => {
    onRefused(null);
    try {
      await steps[step].mutateAsync();
      notify.success(done);
    } catch (error) {
      // The server says why it refuses (a box still receiving, discrepancies without a decision).
      if (error instanceof ApiError && error.status === 409) onRefused(error.message);
      else showApiError(error);
    }
  };
  if (invoice.status === 'closed') return null;
  return (
    <Space wrap>
      <Button onClick={onEdit}>Edit</Button>
      <Popconfirm
        title={`Reconcile ${invoice.invoice_no}?`}
        description="Every manifest IMEI not received yet becomes missing."
        okText="Reconcile"
        onConfirm={() => take('reconcile', `${invoice.invoice_no} is reconciled.`)}
      >
        <Button type={invoice.status === 'reconciled' ? 'default' : 'primary'}>
          {invoice.status === 'reconciled' ? 'Reconcile again' : 'Reconcile'}
        </Button>
      </Popconfirm>
      {invoice.status === 'reconciled' && (
        <Popconfirm
          title={`Close ${invoice.invoice_no}?`}
          description="Its IMEIs are settled and the invoice no longer changes."
          okText="Close invoice"
          onConfirm={() => take('close', `${invoice.invoice_no} is closed.`)}
        >
          <Button type="primary">Close invoice</Button>
        </Popconfirm>
      )}
    </Space>
  );
}

/**
 * One purchase invoice: header, lines ordered against the manifest and received, its warehouse
 * boxes, the reconciliation and its discrepancies, and the steps to reconcile and close it.
 */
export function InvoiceDrawer({
  id,
  onEdit,
  onClose,
}: {
  id: number;
  onEdit: () => void;
  onClose: () => void;
}) {
  const dialogFocus = useDialogFocus();
  const detail = useInvoiceDetail(id);
  const canManage = useCan(INVOICE_MANAGE_ACCESS);
  const canSeeImeis = useCan(INVOICE_IMEI_VIEW_ACCESS);
  const [refused, setRefused] = useState<string | null>(null);
  const current = detail.data;
  const invoice = current?.invoice;

  return (
    <Drawer
      {...dialogFocus}
      open
      size={1000}
      title={invoice ? `Invoice ${invoice.invoice_no}` : 'Purchase invoice'}
      onClose={onClose}
    >
      {detail.isError && (
        <Alert
          type="error"
          showIcon
          title="The invoice could not be loaded."
          description={detail.error.message}
        />
      )}
      {!current || !invoice ? (
        !detail.isError && <Spin />
      ) : (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          {canManage && (
            // In the body, not the header: the notifications at the top right would cover them.
            <InvoiceSteps invoice={invoice} onEdit={onEdit} onRefused={setRefused} />
          )}
          {refused && (
            <Alert
              type="error"
              showIcon
              closable={{ onClose: () => setRefused(null) }}
              title={refused}
              data-testid="invoice-refusal"
            />
          )}
          <Descriptions size="small" bordered column={{ xs: 1, md: 3 }}>
            <Descriptions.Item label="Status">
              <InvoiceStatusTag status={invoice.status} />
            </Descriptions.Item>
            <Descriptions.Item label="Vendor">{invoice.vendor}</Descriptions.Item>
            <Descriptions.Item label="Invoice date">
              {invoice.invoice_date ?? '—'}
            </Descriptions.Item>
            <Descriptions.Item label="Total">
              {invoice.total_cents === null
                ? '—'
                : `${dollars(invoice.total_cents)} ${invoice.currency}`}
            </Descriptions.Item>
            <Descriptions.Item label="Lines total">
              {dollars(invoice.lines_total_cents)}
            </Descriptions.Item>
            <Descriptions.Item label="Ordered">{invoice.qty_ordered}</Descriptions.Item>
            <Descriptions.Item label="IMEI manifest">
              {invoice.has_manifest ? 'Yes' : 'No'}
            </Descriptions.Item>
            <Descriptions.Item label="Reconciled">{when(invoice.reconciled_at)}</Descriptions.Item>
            <Descriptions.Item label="Closed">{when(invoice.closed_at)}</Descriptions.Item>
            <Descriptions.Item label="Notes" span="filled">
              {invoice.notes ?? '—'}
            </Descriptions.Item>
          </Descriptions>

          <AttachmentsPanel definition={purchaseInvoiceAttachments} recordId={invoice.id} />

          <Typography.Title level={5} style={{ margin: 0 }}>
            Reconciliation
          </Typography.Title>
          <ReconciliationFigures counts={invoice.counts} />

          <Typography.Title level={5} style={{ margin: 0 }}>
            Lines
          </Typography.Title>
          <Table<InvoiceLine>
            size="small"
            rowKey="id"
            dataSource={current.lines}
            columns={lineColumns}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: 'No lines yet.' }}
          />

          {current.boxes.length > 0 && (
            <>
              <Typography.Title level={5} style={{ margin: 0 }}>
                Warehouse boxes
              </Typography.Title>
              <Table
                size="small"
                rowKey="id"
                dataSource={current.boxes}
                pagination={false}
                columns={[
                  { key: 'code', dataIndex: 'code', title: 'Box' },
                  { key: 'status', dataIndex: 'status', title: 'Status' },
                  { key: 'qty_scanned', dataIndex: 'qty_scanned', title: 'Scanned' },
                  {
                    key: 'qty_expected',
                    title: 'Expected',
                    render: (_, box) => box.qty_expected ?? '—',
                  },
                  {
                    key: 'staging_location',
                    title: 'Staging',
                    render: (_, box) => box.staging_location ?? '—',
                  },
                ]}
              />
            </>
          )}

          {canSeeImeis && <Discrepancies invoice={invoice} canDecide={canManage} />}
        </Space>
      )}
    </Drawer>
  );
}
