import { lazy } from 'react';

/**
 * What other areas use of outbound shipping: the page entries of the label desk, the gaylords and
 * the dock, and the desk and the dock themselves for a campaign's pages (scoped to it). The page
 * registry reads this index, so the desk and the dock load with the page that shows them.
 */
export { gaylordsPage, printLabelPage, scanToShipPage } from './shipment.pages';

export const LabelDesk = lazy(() =>
  import('./components/label-desk').then((module) => ({ default: module.LabelDesk })),
);

export const Dock = lazy(() =>
  import('./components/dock').then((module) => ({ default: module.Dock })),
);
