import { productOfferEndpoints } from '@inventory/contract';
import * as z from 'zod/mini';
import { defineJob, registerJobs } from '../../toolkit/jobs.js';
import { pickerOptions } from '../../toolkit/pickers.js';
import type { AppModule } from '../module.js';
import {
  acceptOffer,
  convertOffer,
  counterOffer,
  createOffer,
  expireOffers,
  listOffers,
  OFFER_LISTING_PICKER,
  OFFER_RETAILER_PICKER,
  rejectOffer,
} from './product-offers.service.js';

/**
 * Offers past their last day expire every minute, once across all app servers, so that an
 * accepted offer's reserved units go back to the listing whether or not anyone reads the offers.
 */
export const productOfferExpiryJob = defineJob({
  name: 'product-offer.expire',
  schema: z.object({}),
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  // A sweep that runs past the next one's minute has stalled: let the next one sweep.
  expireInSeconds: 60,
  every: '* * * * *',
  handler: (_data, { db }) => expireOffers(db),
});

/**
 * Product offers (DOMAIN.md 4.1 /dashboard/product-offer): the open and closed offers, a new offer
 * entered for a retailer with its pickers, and the answers: counter, accept, reject, convert.
 * Offers past their last day expire every minute (`productOfferExpiryJob`) and when offers are
 * read, so the list never shows one open past its day.
 */
export const productOfferModule: AppModule = {
  name: 'product-offers',
  register(context) {
    const { endpoint, db } = context;
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

    registerJobs(context, [productOfferExpiryJob]);
  },
};
