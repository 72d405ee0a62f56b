import { lifelineMinimumEndpoints, planPriceEndpoints } from '@inventory/contract';
import { Answer } from '../../http/endpoint.js';
import { registerImports } from '../../toolkit/imports.js';
import { pickerOptions } from '../../toolkit/pickers.js';
import { registerList } from '../../toolkit/resource.js';
import { MODEL_PICKER } from '../master-data/index.js';
import type { AppModule } from '../module.js';
import { planPriceImportStore } from './plan-prices-import.js';
import {
  createPlanPrice,
  expirePlanPrice,
  lifelineMinimums,
  planPriceVersions,
  schedulePlanPriceChange,
  setLifelineMinimum,
  withdrawPlanPrice,
} from './plan-prices.service.js';
import { CARRIER_PICKER, planPriceListStore } from './plan-prices.store.js';
import { variantOptions } from './variant-options.js';

/**
 * Government-plan pricing (DOMAIN.md 4.9): the versions of each price, their changes, expiries and
 * history, the import, and the Lifeline minimum service standard.
 */
export const pricingModule: AppModule = {
  name: 'pricing',
  register(context) {
    const { endpoint, db } = context;
    registerList(context, planPriceListStore);
    endpoint(planPriceEndpoints.create, ({ principal, meta, body }) =>
      db.transaction((tx) => createPlanPrice(tx, { actor: principal, meta }, body)),
    );
    endpoint(planPriceEndpoints.scheduleChange, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        schedulePlanPriceChange(tx, { actor: principal, meta }, params.id, body),
      ),
    );
    endpoint(planPriceEndpoints.expire, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        expirePlanPrice(tx, { actor: principal, meta }, params.id, body.last_day),
      ),
    );
    endpoint(planPriceEndpoints.withdraw, async ({ principal, meta, params }) => {
      await db.transaction((tx) => withdrawPlanPrice(tx, { actor: principal, meta }, params.id));
      return new Answer(null, 'The scheduled price is withdrawn.');
    });
    endpoint(planPriceEndpoints.versions, ({ params }) => planPriceVersions(db, params.id));
    endpoint(planPriceEndpoints.carrierOptions, ({ query }) =>
      pickerOptions(db, CARRIER_PICKER, query),
    );
    endpoint(planPriceEndpoints.modelOptions, ({ query }) =>
      pickerOptions(db, MODEL_PICKER, query),
    );
    endpoint(planPriceEndpoints.variantOptions, ({ query }) => variantOptions(db, query));
    registerImports(context, planPriceImportStore);

    endpoint(lifelineMinimumEndpoints.list, () => lifelineMinimums(db));
    endpoint(lifelineMinimumEndpoints.set, ({ principal, meta, body }) =>
      db.transaction((tx) => setLifelineMinimum(tx, { actor: principal, meta }, body)),
    );
  },
};
