import {
  CARRIER_NAMES,
  CARRIERS,
  closeGaylordSchema,
  GAYLORD_MANAGE_ACCESS,
  GAYLORD_SCAN_TONES,
  GAYLORD_STATUS_WORDS,
  generateScanFormSchema,
  openGaylordSchema,
  SHIPPING_SERVICE_INFO,
  SHIPPING_SERVICES,
  type Carrier,
  type GaylordRow,
  type GaylordScanResult,
  type GaylordStatus,
  type PackageRow,
  type ScanFormRow,
  type ShippingService,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Descriptions,
  Empty,
  Popconfirm,
  Space,
  Spin,
  Statistic,
  Table,
  Tag,
  Typography,
  type InputRef,
} from 'antd';
import { useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageEntry, PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { useUrlParam } from '../../../shell/use-url-state';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { counted, when } from '../../../toolkit/format';
import { KeyLink, useRecordHref } from '../../../toolkit/record-link';
import {
  beep,
  queuedLine,
  ScanInput,
  ScanLog,
  StationColumn,
  StationColumns,
  StationNameInput,
  useScanQueue,
  useStationName,
  useWedgeScanner,
  withAnswer,
  type ScanFeedback,
  type ScanLine,
} from '../../../toolkit/station';
import {
  printGaylordLabel,
  printScanForm,
  useGaylord,
  useGaylordActions,
  useGaylordBoard,
  useGaylordScans,
} from '../api/gaylords.queries';
import { PackageStatusTag } from '../components/label-actions';

/** The address key of the gaylord shown instead of the board. */
const GAYLORD_PARAM = 'gaylord';

const STATUS_COLORS: Record<GaylordStatus, string> = {
  open: 'blue',
  closed: 'gold',
  picked_up: 'green',
};

const FEEDBACK: ScanFeedback<GaylordScanResult> = {
  tones: GAYLORD_SCAN_TONES,
  words: {
    sorted: 'Sorted in',
    already_in_gaylord: 'Already in this gaylord',
    other_gaylord: 'In another gaylord',
    wrong_carrier: 'Wrong carrier',
    wrong_service: 'Wrong service',
    voided: 'Label voided',
    scanned_out: 'Scanned out',
    cancel_requested: 'Cancellation requested',
    gaylord_closed: 'Gaylord closed',
    unknown: 'Unknown parcel',
  },
};

const serviceName = (service: ShippingService) => SHIPPING_SERVICE_INFO[service].name;

const kilograms = (grams: number) => `${(grams / 1000).toFixed(1)} kg`;

const parcelsText = (count: number) => counted(count, 'parcel');

function GaylordStatusTag({ status }: { status: GaylordStatus }) {
  return (
    <Tag color={STATUS_COLORS[status]} data-testid="gaylord-status">
      {GAYLORD_STATUS_WORDS[status]}
    </Tag>
  );
}

/** The gaylord's PDF label, opened in a new tab. */
const printLabel = (gaylord: GaylordRow) => void printGaylordLabel(gaylord.id).catch(showApiError);

/** A SCAN form's PDF, opened in a new tab. */
const openForm = (formId: number) => void printScanForm(formId).catch(showApiError);

/** The board's gaylords: the code opens the gaylord, with its station while it is open. */
function GaylordTable({
  title,
  rows,
  empty,
  extra = [],
}: {
  title: string;
  rows: readonly GaylordRow[];
  empty: string;
  extra?: { key: string; title: string; render: (row: GaylordRow) => ReactNode }[];
}) {
  const href = useRecordHref();
  const headingId = `gaylords-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={headingId}>
      <Typography.Title level={2} id={headingId} style={{ fontSize: 18 }}>
        {title} <Typography.Text type="secondary">({rows.length})</Typography.Text>
      </Typography.Title>
      <Table<GaylordRow>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={[...rows]}
        locale={{ emptyText: <Empty description={empty} /> }}
        scroll={{ x: 'max-content' }}
        columns={[
          {
            key: 'code',
            title: 'Gaylord',
            fixed: 'left',
            render: (_, row) => (
              <KeyLink to={href(GAYLORD_PARAM, row.id)} title={`Open gaylord ${row.code}`}>
                {row.code}
              </KeyLink>
            ),
          },
          {
            key: 'service',
            title: 'Carrier service',
            render: (_, row) => serviceName(row.service),
          },
          { key: 'parcels', title: 'Parcels', dataIndex: 'parcels', align: 'right' },
          {
            key: 'weight',
            title: 'Weight',
            align: 'right',
            render: (_, row) => kilograms(row.weight_g),
          },
          ...extra.map((column) => ({
            ...column,
            render: (_: unknown, row: GaylordRow) => column.render(row),
          })),
        ]}
      />
    </section>
  );
}

/**
 * Open a gaylord: the service chosen, its label opens at once to go on the box, and the page shows
 * its sorting station.
 */
function OpenGaylordDrawer({
  onOpened,
  onClose,
}: {
  onOpened: (gaylord: GaylordRow) => void;
  onClose: () => void;
}) {
  const actions = useGaylordActions();
  return (
    <ActionDrawer
      title="Open a gaylord"
      intro="Choose the carrier service whose parcels go into it. Its label opens to print and stick on the gaylord."
      fields={[
        {
          name: 'service',
          label: 'Carrier service',
          kind: 'select',
          required: true,
          options: SHIPPING_SERVICES.map((service) => ({
            value: service,
            label: serviceName(service),
          })),
        },
      ]}
      schema={openGaylordSchema}
      initialValues={{}}
      submitLabel="Open gaylord"
      run={async (values) => {
        const gaylord = await actions.open.mutateAsync(values.service as ShippingService);
        printLabel(gaylord);
        onOpened(gaylord);
        return `Gaylord ${gaylord.code} is open for ${serviceName(gaylord.service)}.`;
      }}
      onClose={onClose}
    />
  );
}

/** A carrier's SCAN form: the closed gaylords waiting go on the form of the ship date. */
function ScanFormDrawer({ carrier, onClose }: { carrier: Carrier; onClose: () => void }) {
  const actions = useGaylordActions();
  return (
    <ActionDrawer
      title={`${CARRIER_NAMES[carrier]} SCAN form`}
      intro={
        `The closed ${CARRIER_NAMES[carrier]} gaylords not yet on a form go on the form of the ship ` +
        'date and the origin ZIP: one form a day, so gaylords closed later join it until the carrier takes it.'
      }
      fields={[
        {
          name: 'ship_date',
          label: 'Ship date (YYYY-MM-DD)',
          kind: 'text',
          placeholder: 'Today',
          help: 'Leave empty for today.',
        },
      ]}
      schema={generateScanFormSchema}
      initialValues={{}}
      submitLabel="Make SCAN form"
      run={async (values) => {
        const shipDate = typeof values.ship_date === 'string' ? values.ship_date.trim() : '';
        const answer = await actions.generateScanForm.mutateAsync({
          carrier,
          ...(shipDate && { ship_date: shipDate }),
        });
        openForm(answer.form.id);
        return `${answer.gaylords.join(', ')} ${answer.created ? 'on the new' : 'added to'} SCAN form ${answer.form.number} (${parcelsText(answer.form.package_count)}).`;
      }}
      onClose={onClose}
    />
  );
}

/** Picked up: the carrier took the gaylord; its parcels ship. */
function PickUpButton({ gaylord }: { gaylord: GaylordRow }) {
  const actions = useGaylordActions();
  return (
    <Popconfirm
      title={`${gaylord.code} picked up? Its ${parcelsText(gaylord.parcels)} ship now.`}
      okText="Picked up"
      cancelText="Not yet"
      onConfirm={async () => {
        try {
          const row = await actions.pickUp.mutateAsync(gaylord.id);
          notify.success(`Gaylord ${row.code} is picked up: its parcels shipped.`);
        } catch (error) {
          showApiError(error);
        }
      }}
    >
      <Button aria-label={`Picked up ${gaylord.code}`}>Picked up</Button>
    </Popconfirm>
  );
}

/** The board: open gaylords, those closed awaiting pickup, the SCAN forms, today's pickups. */
function Board() {
  const board = useGaylordBoard();
  const mayManage = useCan(GAYLORD_MANAGE_ACCESS);
  const [formFor, setFormFor] = useState<Carrier | null>(null);
  if (board.error) return <Alert type="error" showIcon title={board.error.message} />;
  if (!board.data) return <Spin />;
  const { open, closed, picked_up: pickedUp, scan_forms: forms } = board.data;
  const waiting = (carrier: Carrier) =>
    closed.filter((row) => row.carrier === carrier && row.scan_form_id === null).length;
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <GaylordTable
        title="Open gaylords"
        rows={open}
        empty="No gaylord is open: open one for a carrier service, then scan its labelled parcels into it."
        extra={[
          {
            key: 'opened',
            title: 'Opened',
            render: (row) =>
              `${when(row.opened_at)}${row.opened_by_name ? ` by ${row.opened_by_name}` : ''}`,
          },
        ]}
      />
      <section aria-labelledby="gaylords-scan-forms-actions">
        <Typography.Title level={2} id="gaylords-scan-forms-actions" style={{ fontSize: 18 }}>
          SCAN forms
        </Typography.Title>
        {mayManage && (
          <Space wrap style={{ marginBottom: 8 }}>
            {CARRIERS.map((carrier) => (
              <Button
                key={carrier}
                disabled={waiting(carrier) === 0}
                onClick={() => setFormFor(carrier)}
              >
                {CARRIER_NAMES[carrier]} SCAN form ({counted(waiting(carrier), 'gaylord')} waiting)
              </Button>
            ))}
          </Space>
        )}
        <Table<ScanFormRow>
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={forms}
          locale={{
            emptyText: (
              <Empty description="No SCAN form today: close the gaylords, then make the form of their carrier." />
            ),
          }}
          columns={[
            {
              key: 'number',
              title: 'Form',
              render: (_, form) => (
                <Button
                  type="link"
                  style={{ padding: 0 }}
                  aria-label={`Open SCAN form ${form.number}`}
                  onClick={() => openForm(form.id)}
                >
                  {form.number}
                </Button>
              ),
            },
            { key: 'carrier', title: 'Carrier', render: (_, form) => CARRIER_NAMES[form.carrier] },
            { key: 'date', title: 'Ship date', dataIndex: 'ship_date' },
            { key: 'zip', title: 'Origin ZIP', dataIndex: 'origin_zip' },
            { key: 'gaylords', title: 'Gaylords', dataIndex: 'gaylords', align: 'right' },
            { key: 'parcels', title: 'Parcels', dataIndex: 'package_count', align: 'right' },
            {
              key: 'status',
              title: 'Carrier',
              render: (_, form) =>
                form.picked_up_at ? (
                  <Tag color="green">Taken {when(form.picked_up_at)}</Tag>
                ) : (
                  <Tag>Waiting</Tag>
                ),
            },
          ]}
        />
      </section>
      <GaylordTable
        title="Closed, awaiting pickup"
        rows={closed}
        empty="No closed gaylord is waiting for its carrier."
        extra={[
          { key: 'closed', title: 'Closed', render: (row) => when(row.closed_at) },
          {
            key: 'form',
            title: 'SCAN form',
            render: (row) =>
              row.scan_form_id ? (
                <Button
                  type="link"
                  style={{ padding: 0 }}
                  aria-label={`Open SCAN form ${row.scan_form_number} of ${row.code}`}
                  onClick={() => openForm(row.scan_form_id!)}
                >
                  {row.scan_form_number} ({row.ship_date})
                </Button>
              ) : (
                <Tag>None yet</Tag>
              ),
          },
          ...(mayManage
            ? [
                {
                  key: 'actions',
                  title: 'Actions',
                  render: (row: GaylordRow) => <PickUpButton gaylord={row} />,
                },
              ]
            : []),
        ]}
      />
      <GaylordTable
        title="Picked up today"
        rows={pickedUp}
        empty="No gaylord was picked up today."
        extra={[
          {
            key: 'picked',
            title: 'Picked up',
            render: (row) =>
              `${when(row.picked_up_at)}${row.picked_up_by_name ? ` by ${row.picked_up_by_name}` : ''}`,
          },
        ]}
      />
      {formFor && <ScanFormDrawer carrier={formFor} onClose={() => setFormFor(null)} />}
    </Space>
  );
}

/** A gaylord's parcels; while it is open, each may be taken out. */
function ParcelTable({
  gaylord,
  parcels,
  onTakeOut,
}: {
  gaylord: GaylordRow;
  parcels: readonly PackageRow[];
  onTakeOut?: (parcel: PackageRow) => void;
}) {
  return (
    <Table<PackageRow>
      size="small"
      rowKey="id"
      pagination={false}
      dataSource={[...parcels]}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: <Empty description={`No parcel in ${gaylord.code} yet.`} /> }}
      columns={[
        { key: 'tracking', title: 'Tracking', dataIndex: 'tracking_number', fixed: 'left' },
        { key: 'order', title: 'Order', dataIndex: 'order_number' },
        { key: 'place', title: 'Ships to', dataIndex: 'place' },
        { key: 'weight', title: 'Weight (g)', dataIndex: 'weight_g', align: 'right' },
        {
          key: 'status',
          title: 'Status',
          render: (_, parcel) => <PackageStatusTag status={parcel.status} />,
        },
        ...(onTakeOut
          ? [
              {
                key: 'actions',
                title: 'Actions',
                render: (_: unknown, parcel: PackageRow) =>
                  parcel.status === 'in_gaylord' && (
                    <Button
                      size="small"
                      aria-label={`Take ${parcel.tracking_number} out`}
                      onClick={() => onTakeOut(parcel)}
                    >
                      Take out
                    </Button>
                  ),
              },
            ]
          : []),
      ]}
    />
  );
}

/** The sorting station of an open gaylord: scan parcels in; the answer's count is the gaylord's. */
function SortingStation({
  gaylord,
  parcels,
  onClose,
}: {
  gaylord: GaylordRow;
  parcels: readonly PackageRow[];
  onClose: () => void;
}) {
  const scans = useGaylordScans(gaylord.id);
  const actions = useGaylordActions();
  const [station, setStation] = useStationName();
  const [log, setLog] = useState<ScanLine<GaylordScanResult>[]>([]);
  const scanField = useRef<InputRef>(null);
  const scanner = useWedgeScanner(scanField, true);
  const queue = useScanQueue({
    send: (code: string) => scans.scan(code, station.trim()),
    apply: async (answer) => {
      beep(FEEDBACK.tones[answer.result]);
      setLog((lines) => withAnswer(lines, answer));
      await scans.apply(answer);
    },
    failed: () => beep('error'),
  });
  const takeOut = async (parcel: PackageRow) => {
    try {
      await actions.takeOut.mutateAsync({ id: gaylord.id, packageId: parcel.id });
      notify.success(
        `${parcel.tracking_number} is out of ${gaylord.code}: keep it with its label.`,
      );
    } catch (error) {
      showApiError(error);
    } finally {
      scanner.refocus();
    }
  };
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Space wrap align="start" size="large">
        <ScanInput
          ref={scanField}
          scanner={scanner}
          label={`Scan a parcel into ${gaylord.code}`}
          placeholder="Scan the tracking barcode"
          onScan={queue.enqueue}
        />
        <StationNameInput station={station} onChange={setStation} onDone={scanner.refocus} />
        <Statistic
          title="Parcels in it"
          value={gaylord.parcels}
          valueRender={(node) => <span data-testid="gaylord-count">{node}</span>}
        />
        <Button type="primary" onClick={onClose} disabled={gaylord.parcels === 0}>
          Close gaylord
        </Button>
      </Space>
      <StationColumns>
        <StationColumn title="Scans at this station">
          <ScanLog
            lines={[...queue.queued.map(queuedLine), ...log]}
            feedback={FEEDBACK}
            empty={`Scan the first ${serviceName(gaylord.service)} parcel: each answer shows here.`}
          />
        </StationColumn>
        <StationColumn title={`In ${gaylord.code}`}>
          <ParcelTable
            gaylord={gaylord}
            parcels={parcels}
            onTakeOut={(parcel) => void takeOut(parcel)}
          />
        </StationColumn>
      </StationColumns>
    </Space>
  );
}

/** One gaylord (`?gaylord=`): what it is, its actions, its station while open, its parcels. */
function GaylordView({ id, entry }: { id: number; entry: PageEntry }) {
  const detail = useGaylord(id);
  const actions = useGaylordActions();
  const mayManage = useCan(GAYLORD_MANAGE_ACCESS);
  const [closing, setClosing] = useState(false);
  const back = (
    <Link to={entry.path} aria-label="All gaylords">
      ← All gaylords
    </Link>
  );
  if (detail.error) {
    return (
      <Space direction="vertical">
        {back}
        <Alert type="error" showIcon title={detail.error.message} />
      </Space>
    );
  }
  if (!detail.data) return <Spin />;
  const { gaylord, parcels } = detail.data;
  const stationOpen = gaylord.status === 'open' && mayManage;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      {back}
      <section aria-labelledby="gaylord-title">
        <Space wrap align="center" style={{ marginBottom: 8 }}>
          <Typography.Title level={2} id="gaylord-title" style={{ fontSize: 20, margin: 0 }}>
            {gaylord.code} · {serviceName(gaylord.service)}
          </Typography.Title>
          <GaylordStatusTag status={gaylord.status} />
          <Button onClick={() => printLabel(gaylord)}>Print label</Button>
          {gaylord.scan_form_id && (
            <Button onClick={() => openForm(gaylord.scan_form_id!)}>
              SCAN form {gaylord.scan_form_number}
            </Button>
          )}
          {mayManage && gaylord.status === 'closed' && <PickUpButton gaylord={gaylord} />}
        </Space>
        <Descriptions
          size="small"
          bordered
          column={{ xs: 1, md: 3 }}
          items={[
            { key: 'parcels', label: 'Parcels', children: parcelsText(gaylord.parcels) },
            { key: 'weight', label: 'Weight', children: kilograms(gaylord.weight_g) },
            {
              key: 'opened',
              label: 'Opened',
              children: `${when(gaylord.opened_at)}${gaylord.opened_by_name ? ` by ${gaylord.opened_by_name}` : ''}`,
            },
            {
              key: 'closed',
              label: 'Closed',
              children: gaylord.closed_at
                ? `${when(gaylord.closed_at)}${gaylord.closed_by_name ? ` by ${gaylord.closed_by_name}` : ''}`
                : '—',
            },
            {
              key: 'form',
              label: 'SCAN form',
              children: gaylord.scan_form_number
                ? `${gaylord.scan_form_number}, ship date ${gaylord.ship_date}`
                : '—',
            },
            {
              key: 'picked',
              label: 'Picked up',
              children: gaylord.picked_up_at
                ? `${when(gaylord.picked_up_at)}${gaylord.picked_up_by_name ? ` by ${gaylord.picked_up_by_name}` : ''}`
                : '—',
            },
          ]}
        />
      </section>
      {stationOpen ? (
        <SortingStation gaylord={gaylord} parcels={parcels} onClose={() => setClosing(true)} />
      ) : (
        <section aria-labelledby="gaylord-parcels">
          <Typography.Title level={3} id="gaylord-parcels" style={{ fontSize: 16 }}>
            Parcels
          </Typography.Title>
          <ParcelTable gaylord={gaylord} parcels={parcels} />
        </section>
      )}
      {closing && (
        <ActionDrawer
          title={`Close ${gaylord.code}`}
          intro={`Count the parcels in ${gaylord.code} and type the count: it must be the ${parcelsText(gaylord.parcels)} scanned in.`}
          fields={[
            { name: 'count', label: 'Parcels counted', kind: 'number', min: 1, required: true },
          ]}
          schema={closeGaylordSchema}
          initialValues={{}}
          submitLabel="Close gaylord"
          run={async (values) => {
            const row = await actions.close.mutateAsync({
              id: gaylord.id,
              count: Number(values.count),
            });
            return `Gaylord ${row.code} is closed with ${parcelsText(row.parcels)}.`;
          }}
          onClose={() => setClosing(false)}
        />
      )}
    </Space>
  );
}

/**
 * Gaylords (`/fulfill/gaylord`, DOMAIN.md 4.14): open gaylords per carrier service with their
 * count and weight, closed ones awaiting pickup, the day's SCAN forms and pickups. A gaylord opens
 * on the page (`?gaylord=`): while open, its sorting station (keyboard or wedge scanner) takes
 * labelled parcels of its service in, and it is closed with the count typed; closed, it goes on
 * its carrier's SCAN form and is marked picked up, which ships its parcels.
 */
export default function GaylordsPage({ entry }: PageProps) {
  const [opened, setOpened] = useUrlParam(GAYLORD_PARAM);
  const openedId = Number(opened) || null;
  const mayManage = useCan(GAYLORD_MANAGE_ACCESS);
  const [opening, setOpening] = useState(false);
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
          {entry.label}
        </Typography.Title>
        {mayManage && !openedId && (
          <Button type="primary" onClick={() => setOpening(true)}>
            Open a gaylord
          </Button>
        )}
      </Space>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        Sort labelled parcels into a gaylord of their carrier service, close it with its count, put
        the closed gaylords on their carrier&apos;s SCAN form and mark them picked up: their parcels
        ship.
      </Typography.Paragraph>
      {openedId ? <GaylordView key={openedId} id={openedId} entry={entry} /> : <Board />}
      {opening && (
        <OpenGaylordDrawer
          onOpened={(gaylord) => setOpened(String(gaylord.id))}
          onClose={() => setOpening(false)}
        />
      )}
    </Space>
  );
}
