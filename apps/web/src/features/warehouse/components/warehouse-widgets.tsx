import type { WarehouseFigures } from '@inventory/contract';
import { Card, Table } from 'antd';
import type { ReactNode } from 'react';
import { HoldTag } from '../../devices';
import { accessoryBinsLink, boxesLink, devicesLink, locationsLink } from '../warehouse-links';
import { Drill, number, type DrillAccess } from './dashboard-parts';
import { WidgetExport } from './widget-export';

/** The warehouse dashboard's tables without a chart. */

type Figures = WarehouseFigures;
type AuditZone = Figures['audits']['by_zone'][number];
type Accessory = Figures['accessories_below_reorder'][number];

/** Devices on hold by reason, in quarantine zones and in repair. */
export function HoldsCard({ figures, can }: { figures: Figures; can: DrillAccess }) {
  return (
    <Card
      title="Holds, quarantine and repair"
      size="small"
      style={{ height: '100%' }}
      extra={<WidgetExport widget="holds" title="Holds, quarantine and repair" />}
    >
      <Table<{ key: string; what: ReactNode; units: number; to: string; allowed: boolean }>
        aria-label="Holds, quarantine and repair"
        size="small"
        rowKey="key"
        pagination={false}
        dataSource={[
          ...figures.holds.by_reason.map((row) => ({
            key: `hold-${row.reason}`,
            what: (
              <>
                On hold: <HoldTag reason={row.reason} />
              </>
            ),
            units: row.units,
            to: devicesLink({ filters: { status: 'hold', hold_reason: row.reason } }),
            allowed: can.devices,
          })),
          ...figures.boxes.by_zone
            .filter((zone) => zone.quarantine)
            .map((zone) => ({
              key: `quarantine-${zone.zone_id}`,
              what: `Devices in quarantine zone ${zone.zone}`,
              units: zone.units,
              to: boxesLink({ filters: { zone_id: zone.zone_id } }),
              allowed: can.boxes,
            })),
          {
            key: 'in-repair',
            what: 'In repair',
            units: figures.holds.in_repair,
            to: devicesLink({ filters: { status: 'in_repair' } }),
            allowed: can.devices,
          },
        ]}
        columns={[
          { key: 'what', title: 'Devices', render: (_, row) => row.what },
          {
            key: 'units',
            title: 'Units',
            align: 'right',
            render: (_, row) => (
              <Drill to={row.to} allowed={row.allowed}>
                {number(row.units)}
              </Drill>
            ),
          },
        ]}
      />
    </Card>
  );
}

/** The accessories at or under their reorder point, fewest available first. */
export function AccessoriesCard({ figures, can }: { figures: Figures; can: DrillAccess }) {
  return (
    <Card
      title="Accessories below reorder"
      size="small"
      style={{ height: '100%' }}
      extra={<WidgetExport widget="accessories" title="Accessories below reorder" />}
    >
      <Table<Accessory>
        aria-label="Accessories below reorder"
        size="small"
        rowKey="accessory_id"
        dataSource={figures.accessories_below_reorder}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        locale={{ emptyText: 'Every accessory is above its reorder point.' }}
        columns={[
          {
            key: 'sku',
            title: 'SKU',
            render: (_, accessory) => (
              <Drill
                to={accessoryBinsLink({
                  filters: { accessory_id: accessory.accessory_id },
                })}
                allowed={can.accessoryBins}
              >
                {accessory.sku}
              </Drill>
            ),
          },
          { key: 'name', dataIndex: 'name', title: 'Name' },
          {
            key: 'available',
            title: 'Available',
            align: 'right',
            render: (_, accessory) => number(accessory.available),
          },
          {
            key: 'reorder_point',
            title: 'Reorder point',
            align: 'right',
            render: (_, accessory) => number(accessory.reorder_point),
          },
        ]}
      />
    </Card>
  );
}

/** Location audits due now and within a week, by zone. */
export function AuditsCard({ figures, can }: { figures: Figures; can: DrillAccess }) {
  return (
    <Card
      title="Location audits due"
      size="small"
      style={{ height: '100%' }}
      extra={<WidgetExport widget="audits" title="Location audits due" />}
    >
      <Table<AuditZone>
        aria-label="Location audits due"
        size="small"
        rowKey="zone_id"
        dataSource={figures.audits.by_zone}
        pagination={false}
        locale={{ emptyText: 'No location audit is due within a week.' }}
        columns={[
          { key: 'zone', dataIndex: 'zone', title: 'Zone' },
          {
            key: 'due',
            title: 'Due now',
            align: 'right',
            render: (_, zone) => (
              <Drill
                to={locationsLink({ filters: { zone_id: zone.zone_id, audit_due: true } })}
                allowed={can.locations}
              >
                {number(zone.due)}
              </Drill>
            ),
          },
          {
            key: 'due_soon',
            title: 'Within a week',
            align: 'right',
            render: (_, zone) => (
              <Drill
                to={locationsLink({
                  filters: { zone_id: zone.zone_id },
                  sort: 'next_audit_due',
                  order: 'asc',
                })}
                allowed={can.locations}
              >
                {number(zone.due_soon)}
              </Drill>
            ),
          },
        ]}
      />
    </Card>
  );
}
