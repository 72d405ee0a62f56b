/** What other areas use of the push-to-sale catalogue (see sellables.ts). */
export {
  availableStock,
  bundleAvailability,
  comboAvailability,
  pickComboSlotVariant,
  sellableBySku,
  sellablesBySku,
  variantAvailability,
  type Sellable,
  type SellableKind,
  type SellableRef,
  type SlotPick,
} from './sellables.js';
/** What order intake does to a listing's counts (see listing-reservations.ts). */
export {
  ListingReservationError,
  releaseListing,
  reserveListing,
  sellReservedListing,
  type ListingCounts,
  type ReservationRef,
  type ReservationRefusal,
} from './listing-reservations.js';
export { generateCatalogue, type GenerateCatalogueSummary } from './generate-catalogue.js';
