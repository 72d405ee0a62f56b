import type { TransferStep, VendorTransfer } from '@inventory/contract';

/** Each step of a return: its button, and the statuses it may start from (as the server rules). */
export const TRANSFER_STEP_RULES: Record<
  TransferStep,
  { readonly label: string; readonly from: readonly VendorTransfer['status'][] }
> = {
  pack: { label: 'Pack', from: ['draft'] },
  ship: { label: 'Ship', from: ['packed'] },
  'confirm-receipt': { label: 'Confirm receipt', from: ['shipped'] },
  credit: { label: 'Record credit', from: ['shipped', 'received_by_vendor'] },
  cancel: { label: 'Cancel return', from: ['draft', 'packed'] },
};

/** The steps a return can take now; packing needs a device on it. */
export function stepsOf(transfer: Pick<VendorTransfer, 'status' | 'device_count'>): TransferStep[] {
  return (Object.keys(TRANSFER_STEP_RULES) as TransferStep[]).filter(
    (step) =>
      TRANSFER_STEP_RULES[step].from.includes(transfer.status) &&
      (step !== 'pack' || transfer.device_count > 0),
  );
}

/** Codes typed or scanned in one go: one per line, or separated by spaces or commas. */
export const codesOf = (text: string): string[] =>
  text
    .split(/[\s,;]+/)
    .map((code) => code.trim())
    .filter(Boolean);
