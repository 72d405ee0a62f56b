import { GOV_PLAN_PRICE_ACCESS } from '@inventory/contract';
import type { PageEntry } from '../../shell/page-types';

/** Government-plan pricing (DOMAIN.md 4.9). */
export const pricingPages: PageEntry[] = [
  {
    path: '/push-to-sale/price/air-talk',
    group: 'Pricing (Government Plans)',
    label: 'AirTalk plans',
    summary:
      'AirTalk government-plan prices per programme, state and model, with effective dates and versions.',
    ...GOV_PLAN_PRICE_ACCESS,
    load: () => import('./pages/plan-prices-page'),
  },
];
