import {
  clearRmaMismatchSchema,
  closeRmaShortSchema,
  createRmaSchema,
  RMA_REASON_TEXT,
  RMA_REASONS,
  RMA_RESOLUTIONS,
  resolveRmaSchema,
  rmaTransitionSchema,
  type RmaDetail,
  type RmaResolution,
  type RmaRow,
} from '@inventory/contract';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import type { FormField } from '../../../toolkit/resource-page-config';
import { createRma, useRefreshRmas, useRmaActions } from '../api/rma.queries';

type Values = Record<string, unknown>;

const text = (value: unknown) =>
  typeof value === 'string' && value.trim() ? value.trim() : undefined;

const NEW_RMA_FIELDS: FormField[] = [
  {
    name: 'order_number',
    label: 'Order number',
    kind: 'text',
    help: 'Every device the order shipped comes back, unless an IMEI is given.',
  },
  {
    name: 'imei',
    label: 'IMEI',
    kind: 'text',
    help: 'One device; alone, it comes back on the order it last shipped on.',
  },
  {
    name: 'reason',
    label: 'Reason',
    kind: 'select',
    required: true,
    options: RMA_REASONS.map((value) => ({ value, label: RMA_REASON_TEXT[value] })),
  },
  { name: 'note', label: 'Note', kind: 'textarea' },
];

/** Opens an RMA from an order or a device. */
export function NewRmaDrawer({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (rma: RmaDetail) => void;
}) {
  const refresh = useRefreshRmas();
  return (
    <ActionDrawer
      title="New RMA"
      intro="The device must have shipped on the order; a defect is taken within the warranty window. A device is on one open RMA at most."
      fields={NEW_RMA_FIELDS}
      schema={createRmaSchema}
      initialValues={{}}
      submitLabel="Open RMA"
      run={async (values: Values) => {
        const created = await createRma({
          order_number: text(values.order_number),
          imei: text(values.imei),
          reason: values.reason as RmaRow['reason'],
          note: text(values.note) ?? null,
        });
        await refresh();
        onCreated(created);
        return `${created.rma.number} is open for ${created.rma.order_number}.`;
      }}
      onClose={onClose}
    />
  );
}

/** Why an RMA is rejected or cancelled. */
export function RmaReasonDrawer({
  rma,
  action,
  onClose,
  onDone,
}: {
  rma: RmaRow;
  action: 'reject' | 'cancel';
  onClose: () => void;
  onDone: () => void;
}) {
  const actions = useRmaActions();
  return (
    <ActionDrawer
      title={`${action === 'reject' ? 'Reject' : 'Cancel'} ${rma.number}`}
      fields={[{ name: 'reason', label: 'Why', kind: 'textarea', required: action === 'reject' }]}
      schema={rmaTransitionSchema}
      initialValues={{}}
      submitLabel={action === 'reject' ? 'Reject' : 'Cancel RMA'}
      run={async (values: Values) => {
        await actions.transition.mutateAsync({ id: rma.id, action, reason: text(values.reason) });
        onDone();
        return `${rma.number} is ${action === 'reject' ? 'rejected' : 'cancelled'}.`;
      }}
      onClose={onClose}
    />
  );
}

const RESOLUTION_TEXT: Record<RmaResolution, string> = {
  replacement: 'Replacement (a new order to /fulfill/replacement)',
  refund: 'Refund',
  repair: 'Repair (the returned device comes back repaired)',
};

/** The resolution of an inspected RMA. */
export function RmaResolveDrawer({
  rma,
  onClose,
  onDone,
}: {
  rma: RmaRow;
  onClose: () => void;
  onDone: () => void;
}) {
  const actions = useRmaActions();
  return (
    <ActionDrawer
      title={`Resolve ${rma.number}`}
      fields={[
        {
          name: 'resolution',
          label: 'Resolution',
          kind: 'select',
          required: true,
          options: RMA_RESOLUTIONS.map((value) => ({ value, label: RESOLUTION_TEXT[value] })),
        },
        {
          name: 'refund_cents',
          label: 'Refund (cents)',
          kind: 'number',
          min: 0,
          help: 'For a refund only.',
        },
      ]}
      schema={resolveRmaSchema}
      initialValues={{ resolution: 'replacement' }}
      submitLabel="Resolve"
      run={async (values: Values) => {
        const resolution = values.resolution as RmaResolution;
        const answer = await actions.resolve.mutateAsync({
          id: rma.id,
          body: {
            resolution,
            ...(resolution === 'refund' && typeof values.refund_cents === 'number'
              ? { refund_cents: values.refund_cents }
              : {}),
          },
        });
        onDone();
        return answer.rma.replacement_order_number
          ? `${rma.number}: replacement order ${answer.rma.replacement_order_number} created.`
          : `${rma.number} is resolved.`;
      }}
      onClose={onClose}
    />
  );
}

/** A supervisor's acts on an RMA, each with the words it requires. */
export type RmaSupervisorAct = 'clear_mismatch' | 'close_short';

const SUPERVISOR_ACTS = {
  clear_mismatch: {
    title: 'Clear the mismatch of',
    intro:
      'Receiving scanned a device this RMA does not expect. Say what it turned out to be and where it went.',
    field: 'note',
    label: 'What was found',
    schema: clearRmaMismatchSchema,
    submitLabel: 'Clear mismatch',
    done: 'mismatch cleared',
  },
  close_short: {
    title: 'Close short',
    intro:
      'The devices not received are marked not returned and stay with the customer; the RMA is closed.',
    field: 'reason',
    label: 'Why',
    schema: closeRmaShortSchema,
    submitLabel: 'Close short',
    done: 'closed short',
  },
} as const;

/** Clears an RMA's mismatch flag with a note, or closes it short with the reason. */
export function RmaSupervisorDrawer({
  rma,
  act,
  onClose,
  onDone,
}: {
  rma: RmaRow;
  act: RmaSupervisorAct;
  onClose: () => void;
  onDone: () => void;
}) {
  const actions = useRmaActions();
  const words = SUPERVISOR_ACTS[act];
  return (
    <ActionDrawer
      title={`${words.title} ${rma.number}`}
      intro={words.intro}
      fields={[{ name: words.field, label: words.label, kind: 'textarea', required: true }]}
      schema={words.schema}
      initialValues={{}}
      submitLabel={words.submitLabel}
      run={async (values: Values) => {
        // The schema has checked the words before this runs.
        const said = text(values[words.field]) ?? '';
        if (act === 'clear_mismatch') {
          await actions.clearMismatch.mutateAsync({ id: rma.id, body: { note: said } });
        } else {
          await actions.closeShort.mutateAsync({ id: rma.id, body: { reason: said } });
        }
        onDone();
        return `${rma.number}: ${words.done}.`;
      }}
      onClose={onClose}
    />
  );
}
