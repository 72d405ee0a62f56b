import { pendingPages } from '../../shell/page-types';

export const pricingPages = pendingPages('Pricing (Government Plans)', [
  [
    '/push-to-sale/price/air-talk',
    'AirTalk plans',
    { permission: 'price.management' },
    'AirTalk government-plan prices per programme, state and model, with effective dates.',
  ],
]);
