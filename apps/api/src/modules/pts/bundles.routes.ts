import { bundleEndpoints } from '@inventory/contract';
import { pickerOptions } from '../../toolkit/pickers.js';
import { registerList } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import { bundleStore, createBundle, setBundleStatus, updateBundle } from './bundles.service.js';
import { tagPicker, VARIANT_PICKER } from './products.service.js';
import { bundleAvailability } from './sellables.js';

/** `/pts-management/bundles`: fixed kits of variants and how many can be built from stock. */
export const ptsBundlesModule: AppModule = {
  name: 'pts-bundles',
  register(context) {
    const { endpoint, db } = context;
    const B = bundleEndpoints;
    registerList(context, bundleStore);
    endpoint(B.create, ({ principal, body, meta }) =>
      db.transaction((tx) => createBundle(tx, principal, meta, body)),
    );
    endpoint(B.update, ({ principal, params, body, meta }) =>
      db.transaction((tx) => updateBundle(tx, principal, meta, params.id, body)),
    );
    endpoint(B.deactivate, ({ principal, params, meta }) =>
      db.transaction((tx) => setBundleStatus(tx, principal, meta, params.id, 'inactive')),
    );
    endpoint(B.activate, ({ principal, params, meta }) =>
      db.transaction((tx) => setBundleStatus(tx, principal, meta, params.id, 'active')),
    );
    endpoint(B.availability, ({ body }) => bundleAvailability(db, body.ids));
    endpoint(B.variantOptions, ({ query }) => pickerOptions(db, VARIANT_PICKER, query));
    endpoint(B.tagOptions, ({ query }) => pickerOptions(db, tagPicker('bundle'), query));
  },
};
