import { regradeSchema, type PickerOption } from '@inventory/contract';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import type { FormField } from '../../../toolkit/resource-page-config';
import { useRegrade } from '../api/leader.queries';

/**
 * Sends a graded or failed device back to a worker's queue for a re-grade, with the reason (the
 * device lifecycle's `regrade`, on its timeline). The IMEI is filled from a failure's row, or
 * scanned.
 */
export function RegradeDrawer({
  code,
  workers,
  onClose,
}: {
  code: string | null;
  workers: readonly PickerOption[];
  onClose: () => void;
}) {
  const regrade = useRegrade();
  const fields: FormField[] = [
    { name: 'code', label: 'IMEI', kind: 'text', required: true },
    {
      name: 'worker_id',
      label: 'Worker',
      kind: 'select',
      allowClear: true,
      placeholder: 'The worker who had it',
      options: workers.map((worker) => ({ value: worker.id, label: worker.label })),
    },
    { name: 'reason', label: 'Reason', kind: 'textarea', required: true },
  ];
  return (
    <ActionDrawer
      title={code ? `Re-grade ${code}` : 'Send a device back for a re-grade'}
      intro="A graded or failed device of an open request goes back to a worker's queue; the reason is kept on its timeline."
      fields={fields}
      schema={regradeSchema}
      initialValues={code ? { code } : {}}
      submitLabel="Send back"
      run={async (values) =>
        (
          await regrade.mutateAsync({
            code: String(values.code ?? ''),
            reason: String(values.reason ?? ''),
            ...(typeof values.worker_id === 'number' && { worker_id: values.worker_id }),
          })
        ).message
      }
      onClose={onClose}
    />
  );
}
