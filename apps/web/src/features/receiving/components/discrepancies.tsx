import {
  DISCREPANCY_DECISIONS,
  invoiceImeiEndpoints,
  type DiscrepancyDecision,
  type InvoiceImei,
  type PurchaseInvoice,
} from '@inventory/contract';
import { Button, Dropdown, Input, Segmented, Select, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { callEndpoint } from '../../../shell/http-client';
import { notify } from '../../../shell/notify';
import { counted, dollars } from '../../../toolkit/format';
import { startDownload, useResourceList } from '../../../toolkit/resource-queries';
import { DeviceStatusTag } from '../../devices';
import { DecisionTag, decisionWords, invoiceImeisPath, MatchStatusTag, TacModel } from '..';
import { useInvoiceSteps } from '../api/invoices.queries';

/** The most discrepancies the drawer lists at once; the register pages through the rest. */
const SHOWN = 200;

type Showing = 'undecided' | 'discrepancy';

/** Downloads an invoice's discrepancy report: the register's export under `discrepancy`. */
async function exportReport(invoice: PurchaseInvoice, format: 'csv' | 'xlsx') {
  try {
    const answer = await callEndpoint(invoiceImeiEndpoints.exportFile, {
      body: { invoice_id: invoice.id, discrepancy: 'true', format },
    });
    startDownload(answer.data);
    notify.success(`The discrepancy report of ${invoice.invoice_no} has started.`);
  } catch (error) {
    showApiError(error);
  }
}

/**
 * An invoice's discrepancies: missing, unexpected, duplicate IMEIs and models the TAC denies.
 * Choose some, give them a decision (vendor credit, return to vendor...) and a note.
 */
export function Discrepancies({
  invoice,
  canDecide,
}: {
  invoice: PurchaseInvoice;
  canDecide: boolean;
}) {
  const [showing, setShowing] = useState<Showing>('undecided');
  const list = useResourceList<InvoiceImei>(invoiceImeiEndpoints, {
    invoice_id: invoice.id,
    [showing]: 'true',
    limit: SHOWN,
  });
  const steps = useInvoiceSteps(invoice.id);
  const [chosen, setChosen] = useState<number[]>([]);
  const [decision, setDecision] = useState<DiscrepancyDecision | undefined>();
  const [note, setNote] = useState('');
  const open = canDecide && invoice.status !== 'closed';
  const rows = list.data?.items ?? [];

  const decide = async () => {
    if (!decision) {
      notify.error('Choose a decision.');
      return;
    }
    try {
      await steps.decide.mutateAsync({ ids: chosen, decision, note: note.trim() || null });
      notify.success(`${counted(chosen.length, 'IMEI')} decided: ${decisionWords(decision)}.`);
      setChosen([]);
      setNote('');
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          Discrepancies
        </Typography.Title>
        <Space wrap>
          <Segmented<Showing>
            aria-label="Discrepancies shown"
            value={showing}
            onChange={(value) => {
              setShowing(value);
              setChosen([]);
            }}
            options={[
              { value: 'undecided', label: 'Needing a decision' },
              { value: 'discrepancy', label: 'All discrepancies' },
            ]}
          />
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                { key: 'csv', label: 'CSV' },
                { key: 'xlsx', label: 'Excel (XLSX)' },
              ],
              onClick: ({ key }) => void exportReport(invoice, key as 'csv' | 'xlsx'),
            }}
          >
            <Button>Export discrepancy report</Button>
          </Dropdown>
          <Link to={invoiceImeisPath(invoice.id)}>All IMEIs of this invoice</Link>
        </Space>
      </Space>
      {open && (
        <Space wrap>
          <Select<DiscrepancyDecision>
            aria-label="Decision"
            placeholder="Decision"
            style={{ width: 190 }}
            value={decision}
            onChange={setDecision}
            options={DISCREPANCY_DECISIONS.map((value) => ({
              value,
              label: decisionWords(value),
            }))}
          />
          <Input
            aria-label="Decision note"
            placeholder="Note (credit memo, RMA number…)"
            value={note}
            onChange={(event) => setNote(event.target.value)}
            style={{ width: 260 }}
          />
          <Button
            type="primary"
            disabled={chosen.length === 0}
            loading={steps.decide.isPending}
            onClick={() => void decide()}
          >
            Decide for {chosen.length} chosen
          </Button>
        </Space>
      )}
      <Table<InvoiceImei>
        size="small"
        rowKey="id"
        loading={list.isFetching}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
        rowSelection={
          open
            ? {
                selectedRowKeys: chosen,
                onChange: (keys) => setChosen(keys as number[]),
              }
            : undefined
        }
        locale={{
          emptyText:
            showing === 'undecided'
              ? 'Every discrepancy has a decision.'
              : 'No discrepancies on this invoice.',
        }}
        columns={[
          { key: 'identifier', dataIndex: 'identifier', title: 'IMEI' },
          {
            key: 'match_status',
            title: 'Status',
            render: (_, imei) => <MatchStatusTag status={imei.match_status} />,
          },
          { key: 'model', title: 'Vendor model', render: (_, imei) => imei.model ?? '—' },
          { key: 'tac_model', title: 'TAC model', render: (_, imei) => <TacModel imei={imei} /> },
          {
            key: 'unit_cost',
            title: 'Unit cost',
            render: (_, imei) => dollars(imei.unit_cost_cents),
          },
          { key: 'box', title: 'Box', render: (_, imei) => imei.box ?? '—' },
          {
            key: 'device_status',
            title: 'Device',
            render: (_, imei) => <DeviceStatusTag status={imei.device_status} />,
          },
          { key: 'decision', title: 'Decision', render: (_, imei) => <DecisionTag imei={imei} /> },
          {
            key: 'decision_note',
            title: 'Note',
            render: (_, imei) => imei.decision_note ?? '—',
          },
        ]}
      />
      {list.data?.nextCursor && (
        <Typography.Text type="secondary">
          The first {SHOWN} are shown: decide these, and the next ones follow.
        </Typography.Text>
      )}
    </Space>
  );
}
