import {
  carrierAnswerImport,
  carrierAnswerImportEndpoints,
  type CarrierUpdate,
  type CarrierUpdateKind,
} from '@inventory/contract';
import { Alert, Button, Space, Table, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { counted, when } from '../../../toolkit/format';
import type { ImportWords } from '../../../toolkit/resource-page-config';
import {
  CARRIER_UPDATE_READS,
  useCarrierUpdateActions,
  useCarrierUpdateBoard,
} from '../api/fulfilment.queries';
import { CarrierUpdateTag } from './carrier-update-tag';

const ImportDrawer = lazy(() => import('../../../toolkit/import-drawer'));

/** The answer file settles updates: it creates nothing. */
const ANSWER_WORDS: ImportWords = {
  rows: 'Each row answers a pairing or device change submitted to the carrier, by its order or by the IMEI of its device. Nothing is written until every row is right.',
  planned: (_willCreate, willUpdate) => `${counted(willUpdate, 'update')} to settle`,
  done: (batch) => `${counted(batch.updated_count, 'update')} settled.`,
};

const KIND_WORDS: Record<CarrierUpdateKind, { one: string; many: string; title: string }> = {
  pairing: { one: 'pairing', many: 'pairings', title: 'Carrier pairings' },
  device_change: { one: 'device change', many: 'device changes', title: 'Device changes' },
};

/** The carriers with pending updates to export by batch file, and how many each. */
function pendingByCarrier(updates: readonly CarrierUpdate[]) {
  const carriers = new Map<number, { id: number; name: string; count: number }>();
  for (const update of updates) {
    if (update.status !== 'pending' || update.delivery !== 'batch_file') continue;
    const carrier = carriers.get(update.client_carrier_id) ?? {
      id: update.client_carrier_id,
      name: update.client_carrier,
      count: 0,
    };
    carrier.count += 1;
    carriers.set(carrier.id, carrier);
  }
  return [...carriers.values()];
}

/**
 * The carrier updates of a queue (DOMAIN.md 4.14 /fulfill/ota-orders, /fulfill/existing-customer):
 * each order's latest pairing or device change while it waits for its label. Pending batch-file
 * updates are exported per carrier (the file downloads, the updates are submitted); the carrier's
 * answer file is imported with a dry run; a failed update is retried, an OTA order re-paired with
 * another SIM by its worker.
 */
export function CarrierUpdatesPanel({
  kind,
  onDone,
}: {
  kind: CarrierUpdateKind;
  /** After an action: the station's scan field takes the focus back. */
  onDone: () => void;
}) {
  const board = useCarrierUpdateBoard(kind);
  const actions = useCarrierUpdateActions();
  const [importing, setImporting] = useState(false);
  const words = KIND_WORDS[kind];
  const updates = board.data?.updates ?? [];

  const run = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      notify.success(done);
    } catch (error) {
      showApiError(error);
    } finally {
      onDone();
    }
  };

  return (
    <section aria-labelledby={`carrier-updates-${kind}`} style={{ marginTop: 24 }}>
      <Typography.Title level={2} id={`carrier-updates-${kind}`} style={{ fontSize: 18 }}>
        {words.title}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Reported to the carrier when an order&apos;s last unit is picked; its label waits for the
        carrier&apos;s OK. A {words.one} failed for more than{' '}
        {board.data?.pairing_failed_hours ?? 24} hours sends its order to the backlog.
      </Typography.Paragraph>
      <Space wrap style={{ marginBottom: 12 }}>
        {pendingByCarrier(updates).map((carrier) => (
          <Button
            key={carrier.id}
            loading={actions.exportFile.isPending}
            onClick={() =>
              void run(
                () => actions.exportFile.mutateAsync({ client_carrier_id: carrier.id, kind }),
                `${counted(carrier.count, words.one, words.many)} of ${carrier.name} exported and submitted.`,
              )
            }
          >
            Export {counted(carrier.count, `pending ${words.one}`, `pending ${words.many}`)} of{' '}
            {carrier.name}
          </Button>
        ))}
        <Button onClick={() => setImporting(true)}>Import the carrier&apos;s answers</Button>
      </Space>
      {board.error && <Alert type="error" showIcon title={board.error.message} />}
      <Table<CarrierUpdate>
        size="small"
        rowKey="id"
        loading={board.isPending}
        pagination={false}
        dataSource={updates}
        locale={{ emptyText: `No ${words.one} waits: every picked order is answered.` }}
        columns={[
          { key: 'order', title: 'Order', render: (_, update) => update.order_number },
          { key: 'carrier', title: 'Carrier', render: (_, update) => update.client_carrier },
          {
            key: 'units',
            title: kind === 'pairing' ? 'IMEI · ICCID' : 'New IMEI',
            render: (_, update) =>
              update.units
                .map((unit) => (unit.iccid ? `${unit.imei} · ${unit.iccid}` : unit.imei))
                .join(', '),
          },
          {
            key: 'status',
            title: 'Status',
            render: (_, update) => <CarrierUpdateTag update={update} />,
          },
          {
            key: 'message',
            title: 'Carrier says',
            render: (_, update) => update.message ?? '—',
          },
          {
            key: 'delivery',
            title: 'Sent by',
            render: (_, update) =>
              update.delivery === 'http'
                ? 'Carrier API'
                : update.batch_file_id
                  ? `File ${update.batch_file_id}`
                  : 'Next file',
          },
          { key: 'attempts', title: 'Attempts', render: (_, update) => update.attempts },
          {
            key: 'answered',
            title: 'Answered',
            render: (_, update) => when(update.answered_at ?? update.submitted_at),
          },
          {
            key: 'actions',
            title: 'Actions',
            render: (_, update) =>
              update.status === 'failed' &&
              update.order_status === 'fulfilled' && (
                <Space>
                  <Button
                    size="small"
                    onClick={() =>
                      void run(
                        () => actions.retry.mutateAsync(update.id),
                        `The ${words.one} of ${update.order_number} is sent again.`,
                      )
                    }
                  >
                    Retry {update.order_number}
                  </Button>
                  {kind === 'pairing' && (
                    <Button
                      size="small"
                      onClick={() =>
                        void run(
                          () => actions.rePair.mutateAsync(update.id),
                          `${update.order_number} waits for another SIM at ${update.assignee_name ?? 'its worker'}'s station.`,
                        )
                      }
                    >
                      Re-pair {update.order_number} with another SIM
                    </Button>
                  )}
                </Space>
              ),
          },
        ]}
      />
      {importing && (
        <Suspense fallback={null}>
          <ImportDrawer
            resource={carrierAnswerImport}
            endpoints={carrierAnswerImportEndpoints}
            words={ANSWER_WORDS}
            refreshes={CARRIER_UPDATE_READS}
            onClose={() => {
              setImporting(false);
              onDone();
            }}
          />
        </Suspense>
      )}
    </section>
  );
}
