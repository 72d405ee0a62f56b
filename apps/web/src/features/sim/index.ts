/** What other areas (the agent portal) use of the SIM pages. */
export { SimRequestStatusTag } from './components/sim-request-status';
