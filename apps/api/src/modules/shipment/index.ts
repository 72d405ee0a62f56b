/** What other parts of the server use of outbound shipping: the generators of `npm run db:generate`. */
export { generatePackages } from './generate-packages.js';
export { generateTracking } from './generate-tracking.js';
export { generateUnits, generatorUser } from './generate-units.js';
/** What the wholesale area ships with: the dock's order step, the carrier adapter, 4x6 labels. */
export { shipOrders } from './ship-scan.service.js';
export { carrierAdapter, moveUnits, type Desk } from './labels.service.js';
/** What a cancellation asks of the label desk and the carrier (the reship area, DOMAIN.md 4.16). */
export { voidLabel, type LabelDesk } from './labels.service.js';
export { carrierRefOf } from './carrier-labels.store.js';
export { shippingLabel, shippingSettings, weightText } from './shipping-label.js';
/** The package lifecycle, for the stations that move parcels after shipping (unpack). */
export { packageStore } from './packages.store.js';
