import {
  AGENT_CART_ACCESS,
  AGENT_PORTAL_ACCESS,
  AGENT_SIM_ASSIGN_ACCESS,
} from '@inventory/contract';
import type { PageEntry } from '../../shell/page-types';

/** Pages of the agent layout; they are not in the back office's side menu. */
export const agentPages: PageEntry[] = [
  {
    path: '/agent',
    group: null,
    label: 'Agent home',
    summary:
      'Your SIMs on hand, pending requests, shipments on their way and activations, with quick ' +
      'buttons to request, receive, record an activation and return.',
    ...AGENT_PORTAL_ACCESS,
    load: () => import('./pages/agent-home-page'),
  },
  {
    path: '/agent/sims',
    group: null,
    label: 'My SIMs',
    summary: 'The SIMs you hold, with their status, carrier and days held.',
    ...AGENT_PORTAL_ACCESS,
    load: () => import('./pages/agent-sims-page'),
  },
  {
    path: '/agent/activate',
    group: null,
    label: 'Record activation',
    summary: "Scan a SIM you handed out and enter the carrier's enrolment reference.",
    ...AGENT_SIM_ASSIGN_ACCESS,
    load: () => import('./pages/agent-activate-page'),
  },
  {
    path: '/agent/history',
    group: null,
    label: 'History',
    summary: 'Your requests, orders, receipts, activations and returns.',
    ...AGENT_PORTAL_ACCESS,
    load: () => import('./pages/agent-history-page'),
  },
  {
    path: '/agent/shop',
    group: null,
    label: 'Shop',
    summary:
      "Order SIM kits, devices, chargers and marketing material on your dealer's account, " +
      'with what is available and the price, and check your cart out.',
    ...AGENT_CART_ACCESS,
    load: () => import('./pages/agent-shop-page'),
  },
  {
    path: '/agent/profile',
    group: null,
    label: 'Profile',
    summary: 'Your name, phone, shipping address, Rep ID and territory.',
    ...AGENT_PORTAL_ACCESS,
    load: () => import('./pages/agent-profile-page'),
  },
  {
    path: '/agent/request',
    group: null,
    label: 'Request SIMs',
    summary: 'Ask for SIMs of a carrier within your cap, and follow your requests.',
    permission: 'agent.sim-request',
    load: () => import('./pages/agent-request-page'),
  },
  {
    path: '/agent/receive',
    group: null,
    label: 'Receive shipment',
    summary: 'Scan the packs or ICCIDs of a shipment that reached you, and report what is missing.',
    permission: 'agent.sim-receive',
    load: () => import('./pages/agent-receive-page'),
  },
  {
    path: '/agent/returns',
    group: null,
    label: 'Returns',
    summary: 'Send back SIMs you hold with a reason, print the label and follow your returns.',
    permission: 'agent.sim-return',
    load: () => import('./pages/agent-returns-page'),
  },
];
