/**
 * What other areas use of outbound shipping: the page entries of the label desk, the gaylords and
 * the dock.
 */
export { gaylordsPage, printLabelPage, scanToShipPage } from './shipment.pages';
