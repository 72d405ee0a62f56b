import {
  LOCATION_ACCESS,
  LOCATION_KINDS,
  locationEndpoints,
  locationList,
  locationZoneOptionsEndpoint,
  type LabelFormat,
  type Location,
} from '@inventory/contract';
import { Alert, Button, Space, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import type { PageProps } from '../../../shell/page-types';
import { useUrlParam } from '../../../shell/use-url-state';
import { counted, when } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import { useResourceItem } from '../../../toolkit/resource-queries';
import { activeTag, ResourcePage } from '../../../toolkit/resource-page';
import { ACTIVE_OPTIONS, type ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { printLocationLabels, useLocationWrites } from '../api/locations.queries';
import { AuditModal } from '../components/audit-modal';
import { LocationFormDrawer } from '../components/location-form-drawer';
import { RangeDrawer } from '../components/range-drawer';

/** The location opened for editing, in the address: a reload keeps the drawer open. */
const LOCATION_PARAM = 'location';

const YES_NO = [
  { value: 'true', label: 'Yes' },
  { value: 'false', label: 'No' },
];

/** The next audit's date, red once it is due. */
const nextAudit = (location: Location) =>
  location.next_audit_due === null ? (
    '—'
  ) : location.audit_due ? (
    <Tag color="red">Due {location.next_audit_due}</Tag>
  ) : (
    location.next_audit_due
  );

/** What the chosen rows can have done to them at once. */
function ChosenActions({ ids, onClear }: { ids: number[]; onClear: () => void }) {
  const writes = useLocationWrites();
  const [auditing, setAuditing] = useState(false);
  const setActive = async (active: boolean) => {
    try {
      const { changed } = await writes.setActive.mutateAsync({ ids, active });
      notify.success(
        `${counted(changed, 'location')} ${active ? 'activated' : 'deactivated'}, the locations below included.`,
      );
    } catch (error) {
      showApiError(error);
    }
  };
  const print = (format: LabelFormat) => void printLocationLabels(ids, format).catch(showApiError);
  return (
    <>
      <Alert
        type="info"
        style={{ marginBottom: 12 }}
        title={
          <Space wrap>
            <span>{counted(ids.length, 'location')} chosen:</span>
            <Button size="small" onClick={() => void setActive(true)}>
              Activate
            </Button>
            <Button size="small" onClick={() => void setActive(false)}>
              Deactivate
            </Button>
            <Button size="small" onClick={() => print('pdf')}>
              Print labels
            </Button>
            <Button size="small" onClick={() => print('zpl')}>
              Labels as ZPL
            </Button>
            <Button size="small" onClick={() => setAuditing(true)}>
              Record audit
            </Button>
            <Button size="small" type="link" onClick={onClear}>
              Clear the choice
            </Button>
          </Space>
        }
        description="Activating or deactivating a location does the same to every location below it."
      />
      {auditing && (
        <AuditModal
          ids={ids}
          onClose={() => setAuditing(false)}
          onDone={() => setAuditing(false)}
        />
      )}
    </>
  );
}

/**
 * Locations (DOMAIN.md 4.2): the warehouse's zones, aisles, racks, levels and bins, with what
 * each holds and its audits. New locations, ranges, activation, labels and audits.
 */
export default function LocationsPage(props: PageProps) {
  const [chosen, setChosen] = useState<number[]>([]);
  const [creating, setCreating] = useState<'one' | 'range' | null>(null);
  const [openParam, setOpenParam] = useUrlParam(LOCATION_PARAM);
  const openId = Number(openParam) || null;
  const opened = useResourceItem<Location>(locationEndpoints, openId);

  const config = useMemo<ResourcePageConfig<Location, typeof locationList>>(
    () => ({
      resource: { ...locationList, manage: LOCATION_ACCESS },
      endpoints: locationEndpoints,
      titleOf: (location) => location.code,
      searchPlaceholder: 'Code or name',
      record: { param: LOCATION_PARAM },
      selection: { ids: chosen, onChange: setChosen },
      actions: (
        <>
          <Button onClick={() => setCreating('range')}>Create range</Button>
          <Button type="primary" onClick={() => setCreating('one')}>
            New location
          </Button>
        </>
      ),
      header: chosen.length > 0 && <ChosenActions ids={chosen} onClear={() => setChosen([])} />,
      filters: [
        {
          key: 'kind',
          label: 'Kind',
          options: LOCATION_KINDS.map((kind) => ({ value: kind, label: kind })),
        },
        { key: 'zone_id', label: 'Zone', load: pickerLoader(locationZoneOptionsEndpoint) },
        { key: 'active', label: 'Active', options: ACTIVE_OPTIONS },
        { key: 'quarantine', label: 'Quarantine', options: YES_NO },
        { key: 'audit_due', label: 'Audit due', options: YES_NO },
      ],
      columns: [
        { key: 'code', title: 'Code', sortKey: 'code' },
        { key: 'kind', title: 'Kind' },
        { key: 'zone_code', title: 'Zone' },
        { key: 'parent_code', title: 'Parent' },
        { key: 'name', title: 'Name' },
        {
          key: 'quarantine',
          title: 'Quarantine',
          render: (location) => (location.quarantine ? <Tag color="orange">Quarantine</Tag> : '—'),
        },
        {
          key: 'capacity_boxes',
          title: 'Capacity',
          render: (location) =>
            location.capacity_boxes === null
              ? 'No limit'
              : counted(location.capacity_boxes, 'box', 'boxes'),
        },
        { key: 'active', title: 'Active', render: (location) => activeTag(location.active) },
        { key: 'holds', title: 'Holds' },
        {
          key: 'last_audit_at',
          title: 'Last audit',
          render: (location) =>
            location.last_audit_at
              ? `${when(location.last_audit_at)}${location.last_audit_by_name ? ` by ${location.last_audit_by_name}` : ''}`
              : 'Never',
        },
        {
          key: 'next_audit_due',
          title: 'Next audit due',
          sortKey: 'next_audit_due',
          render: nextAudit,
        },
        {
          key: 'updated_at',
          title: 'Changed',
          sortKey: 'updated_at',
          hidden: true,
          render: (location) => when(location.updated_at),
        },
      ],
      rowActions: (location) => (
        <Button size="small" onClick={() => setOpenParam(String(location.id))}>
          Edit
        </Button>
      ),
    }),
    [chosen, setOpenParam],
  );

  return (
    <>
      <ResourcePage {...props} config={config} />
      {creating === 'one' && (
        <LocationFormDrawer location={null} onClose={() => setCreating(null)} />
      )}
      {creating === 'range' && <RangeDrawer onClose={() => setCreating(null)} />}
      {opened.data && openId === opened.data.id && (
        <LocationFormDrawer
          key={opened.data.id}
          location={opened.data}
          onClose={() => setOpenParam(undefined)}
        />
      )}
    </>
  );
}
