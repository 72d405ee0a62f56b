import { comboEndpoints } from '@inventory/contract';
import { pickerOptions } from '../../toolkit/pickers.js';
import { registerList } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import { comboStore, createCombo, setComboStatus, updateCombo } from './combos.service.js';
import { tagPicker, VARIANT_PICKER } from './products.service.js';
import { comboAvailability } from './sellables.js';

/** `/pts-management/combo`: offers with choice slots and the stock pool of each slot. */
export const ptsCombosModule: AppModule = {
  name: 'pts-combos',
  register(context) {
    const { endpoint, db } = context;
    const C = comboEndpoints;
    registerList(context, comboStore);
    endpoint(C.create, ({ principal, body, meta }) =>
      db.transaction((tx) => createCombo(tx, principal, meta, body)),
    );
    endpoint(C.update, ({ principal, params, body, meta }) =>
      db.transaction((tx) => updateCombo(tx, principal, meta, params.id, body)),
    );
    endpoint(C.deactivate, ({ principal, params, meta }) =>
      db.transaction((tx) => setComboStatus(tx, principal, meta, params.id, 'inactive')),
    );
    endpoint(C.activate, ({ principal, params, meta }) =>
      db.transaction((tx) => setComboStatus(tx, principal, meta, params.id, 'active')),
    );
    endpoint(C.availability, ({ body }) => comboAvailability(db, body.ids));
    endpoint(C.variantOptions, ({ query }) => pickerOptions(db, VARIANT_PICKER, query));
    endpoint(C.tagOptions, ({ query }) => pickerOptions(db, tagPicker('combo'), query));
  },
};
