import type { SimRequestDetail } from '@inventory/contract';
import type { LabelContent, SheetContent } from '../../toolkit/documents/print.js';
import { MAX_SHEET_ROWS } from '../../toolkit/documents/sheet.js';

/** Where the parcel goes: the agent, and the ship-to or "pickup". */
const shipToLines = (request: SimRequestDetail) => [
  request.agent_name,
  ...(request.delivery === 'pickup'
    ? ['Pickup at the warehouse', ...(request.ship_to ? [request.ship_to] : [])]
    : (request.ship_to ?? '').split(/\r?\n|,\s*/).filter(Boolean)),
];

/**
 * The packing slip (DOMAIN.md 4.6): the request's SIMs by pack and ICCID, the agent and where it
 * goes, with lines for who packed and checked it. It travels with the SIMs.
 */
export function simRequestPackingSlip(request: SimRequestDetail): SheetContent {
  const sims = request.sims.filter(
    (sim) => sim.status === 'allocated' || sim.status === 'in_transit',
  );
  const packs = new Map<string, number>();
  for (const sim of sims) {
    if (sim.pack_code) packs.set(sim.pack_code, (packs.get(sim.pack_code) ?? 0) + 1);
  }
  return {
    fileName: `${request.number}-packing-slip`,
    sheet: {
      title: 'SIM packing slip',
      number: request.number,
      parties: [
        {
          title: request.delivery === 'pickup' ? 'Hand to' : 'Ship to',
          lines: shipToLines(request),
        },
      ],
      fields: [
        { label: 'Agent', value: request.agent_name },
        { label: 'Client carrier', value: request.client_carrier },
        { label: 'Requested', value: String(request.qty_requested) },
        { label: 'Approved', value: String(request.qty_approved ?? '') },
        { label: 'Delivery', value: request.delivery === 'pickup' ? 'Pickup' : 'Ship' },
        { label: 'Tracking', value: request.tracking_number ?? '' },
      ],
      columns: [
        { header: '#', width: 1, align: 'right' },
        { header: 'ICCID', width: 5 },
        { header: 'Pack', width: 3 },
      ],
      rows: sims
        .slice(0, MAX_SHEET_ROWS + 1)
        .map((sim, index) => [String(index + 1), sim.iccid, sim.pack_code ?? '']),
      totals: [
        ...[...packs].map(([code, count]) => ({ label: `Pack ${code}`, value: String(count) })),
        { label: 'SIMs', value: String(sims.length) },
      ],
      signatures: ['Packed by', 'Received by'],
      footer: `${request.number} - ${request.agent_name} - ${request.client_carrier}`,
    },
  };
}

/** The shipping label (4x6): the request number as a barcode, the agent and the ship-to. */
export function simRequestLabel(request: SimRequestDetail): LabelContent {
  return {
    fileName: `${request.number}-label`,
    labels: [
      {
        barcode: request.number,
        title: request.number,
        lines: [
          ...shipToLines(request),
          `${request.qty_approved ?? 0} SIMs - ${request.client_carrier}`,
          ...(request.tracking_number ? [`Tracking ${request.tracking_number}`] : []),
        ],
      },
    ],
  };
}
