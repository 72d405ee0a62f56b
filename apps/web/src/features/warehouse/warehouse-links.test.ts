import { describe, expect, it } from 'vitest';
import { accessoryBinsLink, boxesLink, devicesLink, locationsLink } from './warehouse-links';

describe('the warehouse dashboard’s drill-downs', () => {
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
});
