import { describe, expect, it } from 'vitest';
import { backlogLink, ordersLink, packagesLink, pipelineLink } from './fulfilment-links';
import { accessoryBinsLink, boxesLink, devicesLink, locationsLink } from './warehouse-links';

describe('the warehouse and fulfilment dashboards’ drill-downs', () => {
  it('set the lists’ own filters and sort in the address', () => {
    expect(boxesLink({ filters: { model_id: 7, grade: 'A+' } })).toBe(
      '/inventory-box/device?model_id=7&grade=A%2B',
    );
    expect(boxesLink({ filters: { zone_id: 3 } })).toBe('/inventory-box/device?zone_id=3');
    expect(devicesLink({ filters: { status: 'hold', hold_reason: 'frp' } })).toBe(
      '/devices/scan?status=hold&hold_reason=frp',
    );
    expect(
      devicesLink({ filters: { status: 'in_stock' }, sort: 'received_at', order: 'asc' }),
    ).toBe('/devices/scan?status=in_stock&sort=received_at&order=asc');
    expect(locationsLink({ filters: { zone_id: 2, audit_due: true } })).toBe(
      '/inventory-box/location/update-location?zone_id=2&audit_due=true',
    );
    expect(accessoryBinsLink({ filters: { accessory_id: 5 } })).toBe(
      '/inventory-box/accessories?accessory_id=5',
    );
    expect(locationsLink()).toBe('/inventory-box/location/update-location');
  });

  it('reach the fulfilment lists by stage, queue, reason and SLA', () => {
    expect(ordersLink({ filters: { status: 'ready', fulfilment_type: 'ota' } })).toBe(
      '/order/list?status=ready&fulfilment_type=ota',
    );
    expect(pipelineLink({ filters: { status: 'labeled' }, sort: 'sla_due_at', order: 'asc' })).toBe(
      '/fulfill/order?status=labeled&sort=sla_due_at&order=asc',
    );
    expect(backlogLink({ filters: { hold_reason: 'no_stock' } })).toBe(
      '/fulfill/backlog-order?hold_reason=no_stock',
    );
    expect(packagesLink({ sort: 'scanned_out_at', order: 'desc' })).toBe(
      '/shipment-management/package?sort=scanned_out_at&order=desc',
    );
  });
});
