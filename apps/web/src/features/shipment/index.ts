/** What other areas use of outbound shipping: the label desk's and the dock's page entries. */
export { printLabelPage, scanToShipPage } from './shipment.pages';
