import {
  canRun,
  packageLifecycle,
  voidLabelSchema,
  type LabelFormat,
  type PackageRow,
} from '@inventory/contract';
import { Button, Space, Tag } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { useProfile } from '../../../shell/use-profile';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { reprintLabel, useVoidLabel } from '../api/packages.queries';

export const PACKAGE_STATUS_COLORS: Partial<Record<PackageRow['status'], string>> = {
  label_created: 'blue',
  in_gaylord: 'geekblue',
  scanned_out: 'green',
  in_transit: 'green',
  out_for_delivery: 'green',
  delivered: 'cyan',
  voided: 'default',
  exception: 'red',
  return_to_sender: 'orange',
  returned: 'orange',
  lost: 'red',
};

export function PackageStatusTag({ status }: { status: PackageRow['status'] }) {
  return (
    <Tag color={PACKAGE_STATUS_COLORS[status] ?? 'default'} data-testid="package-status">
      {packageLifecycle.stateText(status)}
    </Tag>
  );
}

/**
 * A label's actions while its parcel is still here: print it again (counted and audited) and
 * void it (before scan-out only, DOMAIN.md invariant 9), each shown only to who may run it now.
 */
export function LabelActions({
  parcel,
  format,
  onVoided,
}: {
  parcel: PackageRow;
  format: LabelFormat;
  onVoided?: (row: PackageRow) => void;
}) {
  const profile = useProfile();
  const voidLabel = useVoidLabel();
  const [voiding, setVoiding] = useState(false);
  const mayVoid = canRun(packageLifecycle, parcel, 'void', profile.data);
  return (
    <Space size="small" wrap>
      <PackageStatusTag status={parcel.status} />
      {mayVoid && (
        <>
          <Button
            size="small"
            aria-label={`Reprint label ${parcel.tracking_number}`}
            onClick={() => void reprintLabel(parcel.id, format).catch(showApiError)}
          >
            Reprint
          </Button>
          <Button
            size="small"
            danger
            aria-label={`Void label ${parcel.tracking_number}`}
            onClick={() => setVoiding(true)}
          >
            Void
          </Button>
        </>
      )}
      {voiding && (
        <ActionDrawer
          title={`Void label ${parcel.tracking_number}`}
          intro={`Order ${parcel.order_number} goes back to fulfilled and its devices to picked; labelling it again makes a new label.`}
          fields={[{ name: 'reason', label: 'Reason', kind: 'textarea' }]}
          schema={voidLabelSchema}
          initialValues={{}}
          submitLabel="Void label"
          run={async (values) => {
            const row = await voidLabel.mutateAsync({
              id: parcel.id,
              reason: typeof values.reason === 'string' ? values.reason : null,
            });
            onVoided?.(row);
            return `Label ${row.tracking_number} is voided.`;
          }}
          onClose={() => setVoiding(false)}
        />
      )}
    </Space>
  );
}
