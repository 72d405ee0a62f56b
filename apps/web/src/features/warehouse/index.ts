/** What other areas use of the warehouse dashboards: the export menu of a widget or table. */
export { ExportMenu, type ExportFormat } from './components/export-menu';
/** What the main dashboard (features/dashboard) shares with the warehouse dashboards. */
export { ChartCard, Drill, Figure, KeptFiguresTitle, number } from './components/dashboard-parts';
export { boxesLink, devicesLink, linkTo, LINK_ACCESS } from './warehouse-links';
export { backlogLink, ordersLink, packagesLink } from './fulfilment-links';
