import {
  SIM_BOX_STATUSES,
  SIM_PACK_SIZES,
  moveSimBoxEndpoint,
  simBoxList,
  simBoxListEndpoints,
  simBoxPickers,
  splitSimBoxEndpoint,
  type SimBoxRow,
  type SimPackSize,
} from '@inventory/contract';
import { Button, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import type { PageProps } from '../../../shell/page-types';
import { useUrlParam } from '../../../shell/use-url-state';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { when } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import { ResourcePage } from '../../../toolkit/resource-page';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { optionsOf } from '../../master-data';
import { printLabels, useBoxWrites } from '../api/sim-stock.queries';
import { ImportSimListDrawer } from '../components/import-sim-list-drawer';
import { ReceiveSimBoxDrawer } from '../components/receive-sim-box-drawer';
import { SimBoxDrawer } from '../components/sim-box-drawer';

/** The address key of the box whose ICCIDs are shown. */
const BOX_PARAM = 'box';

const BOX_STATUS_COLORS: Record<SimBoxRow['status'], string> = {
  in_stock: 'green',
  split: 'blue',
  depleted: 'default',
};

type Working =
  | { kind: 'receive' }
  | { kind: 'import' }
  | { kind: 'split'; box: SimBoxRow }
  | { kind: 'move'; box: SimBoxRow };

const print = (work: () => Promise<void>) => void work().catch(showApiError);

const config = (
  open: (working: Working) => void,
): ResourcePageConfig<SimBoxRow, typeof simBoxList> => ({
  resource: simBoxList,
  endpoints: simBoxListEndpoints,
  titleOf: (box) => box.code,
  searchPlaceholder: 'Box code or ICCID',
  header: (
    <Typography.Paragraph type="secondary">
      Carrier boxes of SIMs as received, by range or by ICCID list. Split a box into packs of 10 or
      50 before allocating; open a box to read its ICCIDs and packs.
    </Typography.Paragraph>
  ),
  actions: (
    <Space wrap>
      <Button type="primary" onClick={() => open({ kind: 'receive' })}>
        Receive by range
      </Button>
      <Button onClick={() => open({ kind: 'import' })}>Import an ICCID list</Button>
    </Space>
  ),
  record: { param: BOX_PARAM },
  columns: [
    { key: 'code', title: 'Box', sortKey: 'code' },
    { key: 'client_carrier', title: 'Client carrier' },
    { key: 'issuer', title: 'Issuer', render: (box) => box.issuer ?? '—' },
    { key: 'form', title: 'Form', render: (box) => (box.form === 'esim' ? 'eSIM' : box.form) },
    { key: 'iccid_first', title: 'First ICCID' },
    { key: 'iccid_last', title: 'Last ICCID' },
    { key: 'qty', title: 'Qty' },
    {
      key: 'qty_available',
      title: 'Available',
      render: (box) => <span data-testid="box-available">{box.qty_available}</span>,
    },
    { key: 'location_code', title: 'Location', render: (box) => box.location_code ?? '—' },
    {
      key: 'received_at',
      title: 'Received',
      sortKey: 'received_at',
      render: (box) => when(box.received_at),
    },
    {
      key: 'status',
      title: 'Status',
      render: (box) => (
        <Tag color={BOX_STATUS_COLORS[box.status]} data-testid="box-status">
          {box.status.replace('_', ' ')}
          {box.pack_count > 0 && ` (${box.pack_count} packs)`}
        </Tag>
      ),
    },
  ],
  filters: [
    {
      key: 'client_carrier_id',
      label: 'Client carrier',
      load: pickerLoader(simBoxPickers.carriers),
    },
    { key: 'status', label: 'Status', options: optionsOf(SIM_BOX_STATUSES) },
    { key: 'location_id', label: 'Location', load: pickerLoader(simBoxPickers.locations) },
  ],
  rowActions: (box) => (
    <Space size="small" wrap>
      <Button
        size="small"
        aria-label={`Print the label of ${box.code}`}
        onClick={() => print(() => printLabels.box(box.id))}
      >
        Label
      </Button>
      {box.qty_available > 0 && (
        <Button
          size="small"
          aria-label={`Split ${box.code} into packs`}
          onClick={() => open({ kind: 'split', box })}
        >
          Split
        </Button>
      )}
      {box.pack_count > 0 && (
        <Button
          size="small"
          aria-label={`Print the pack labels of ${box.code}`}
          onClick={() => print(() => printLabels.packs(box.id))}
        >
          Pack labels
        </Button>
      )}
      <Button
        size="small"
        aria-label={`Move ${box.code}`}
        onClick={() => open({ kind: 'move', box })}
      >
        Move
      </Button>
    </Space>
  ),
});

/**
 * SIM boxes (`/sim/box`, DOMAIN.md 4.6): every box with its carrier, range, quantity, what is
 * still in stock, location and status; receive by range or ICCID list, labels, split into
 * packs (their labels print as one file), move, and a box's ICCIDs in its drawer (`?box=`).
 */
export default function SimBoxesPage(props: PageProps) {
  const [working, setWorking] = useState<Working | null>(null);
  const [opened, setOpened] = useUrlParam(BOX_PARAM);
  const writes = useBoxWrites();
  const pageConfig = useMemo(() => config(setWorking), []);
  const close = () => setWorking(null);
  const openedId = Number(opened) || null;
  return (
    <>
      <ResourcePage {...props} config={pageConfig} />
      {openedId && <SimBoxDrawer id={openedId} onClose={() => setOpened(undefined)} />}
      {working?.kind === 'receive' && (
        <ReceiveSimBoxDrawer
          onClose={close}
          onReceived={(box) => {
            close();
            print(() => printLabels.box(box.id));
          }}
        />
      )}
      {working?.kind === 'import' && <ImportSimListDrawer onClose={close} />}
      {working?.kind === 'split' && (
        <ActionDrawer
          title={`Split ${working.box.code} into packs`}
          intro={`The box's ${working.box.qty_available} SIMs in stock that are in no pack yet go into packs in ICCID order; the last pack may hold fewer. The pack labels print as one file.`}
          fields={[
            {
              name: 'size',
              label: 'SIMs a pack',
              kind: 'select',
              required: true,
              options: SIM_PACK_SIZES.map((size) => ({ value: size, label: `${size} SIMs` })),
            },
          ]}
          schema={splitSimBoxEndpoint.body}
          initialValues={{ size: 50 }}
          submitLabel="Split and print the labels"
          run={async (values) => {
            const split = await writes.split.mutateAsync({
              id: working.box.id,
              size: values.size as SimPackSize,
            });
            await printLabels.packs(split.box.id);
            return `${working.box.code} split into ${split.packs.length} packs.`;
          }}
          onClose={close}
        />
      )}
      {working?.kind === 'move' && (
        <ActionDrawer
          title={`Move ${working.box.code}`}
          fields={[
            {
              name: 'location_id',
              label: 'Location',
              kind: 'remote',
              required: true,
              load: pickerLoader(simBoxPickers.locations),
            },
          ]}
          schema={moveSimBoxEndpoint.body}
          initialValues={{}}
          submitLabel="Move"
          run={async (values) => {
            const moved = await writes.move.mutateAsync({
              id: working.box.id,
              locationId: Number(values.location_id),
            });
            return `${moved.code} is at ${moved.location_code}.`;
          }}
          onClose={close}
        />
      )}
    </>
  );
}
