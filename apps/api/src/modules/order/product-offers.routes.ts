import { productOfferEndpoints } from '@inventory/contract';
import { pickerOptions } from '../../toolkit/pickers.js';
import type { AppModule } from '../module.js';
import {
  acceptOffer,
  convertOffer,
  counterOffer,
  createOffer,
  listOffers,
  OFFER_LISTING_PICKER,
  OFFER_RETAILER_PICKER,
  rejectOffer,
} from './product-offers.service.js';

/**
 * Product offers (DOMAIN.md 4.1 /dashboard/product-offer): the open and closed offers, a new offer
 * entered for a retailer with its pickers, and the answers: counter, accept, reject, convert.
 * Offers past their last day expire when offers are read.
 */
export const productOfferModule: AppModule = {
  name: 'product-offers',
  register({ endpoint, db }) {
    endpoint(productOfferEndpoints.list, ({ query }) => listOffers(db, query.view));
    endpoint(productOfferEndpoints.retailerOptions, ({ query }) =>
      pickerOptions(db, OFFER_RETAILER_PICKER, query),
    );
    endpoint(productOfferEndpoints.listingOptions, ({ query }) =>
      pickerOptions(db, OFFER_LISTING_PICKER, query),
    );
    endpoint(productOfferEndpoints.create, ({ principal, body, meta }) =>
      db.transaction((tx) => createOffer(tx, { actor: principal, meta }, body)),
    );
    endpoint(productOfferEndpoints.counter, ({ principal, params, body, meta }) =>
      db.transaction((tx) => counterOffer(tx, { actor: principal, meta }, params.id, body)),
    );
    endpoint(productOfferEndpoints.accept, ({ principal, params, meta }) =>
      db.transaction((tx) => acceptOffer(tx, { actor: principal, meta }, params.id)),
    );
    endpoint(productOfferEndpoints.reject, ({ principal, params, body, meta }) =>
      db.transaction((tx) => rejectOffer(tx, { actor: principal, meta }, params.id, body.reason)),
    );
    endpoint(productOfferEndpoints.convert, ({ principal, params, meta }) =>
      db.transaction((tx) => convertOffer(tx, { actor: principal, meta }, params.id)),
    );
  },
};
