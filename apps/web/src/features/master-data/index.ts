/** What other areas use of master data. */
export { LearnTacModal } from './components/unknown-tacs';
export { firstOf, optionsOf, searchModels, stampColumns } from './pages/master-data-options';
