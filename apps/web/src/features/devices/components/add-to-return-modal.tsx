import {
  addTransferDevicesEndpoint,
  vendorTransferEndpoints,
  type BlacklistEntry,
} from '@inventory/contract';
import { Alert, Modal, Radio, Space, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { callEndpoint } from '../../../shell/http-client';
import { notify } from '../../../shell/notify';
import { counted, dollars } from '../../../toolkit/format';
import { useRefreshDevices } from '..';
import { useDialogFocus } from '../../../shell/dialog-focus';

const NEW_RETURN = 0;

/**
 * Puts a listed device on a draft return to its vendor: one of the vendor's drafts, or a new one
 * for this reason (blacklisted) and the device's invoice.
 */
export function AddToReturnModal({
  entry,
  onClose,
}: {
  entry: BlacklistEntry & { device_id: number; vendor_id: number };
  onClose: () => void;
}) {
  const dialogFocus = useDialogFocus();
  const drafts = useQuery({
    queryKey: [vendorTransferEndpoints.list.path, 'drafts', entry.vendor_id],
    queryFn: async () =>
      (
        await callEndpoint(vendorTransferEndpoints.list, {
          query: { status: 'draft', vendor_id: entry.vendor_id, limit: 50 },
        })
      ).data.items,
  });
  const [chosen, setChosen] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const refresh = useRefreshDevices();
  // The newest draft is offered first; a vendor without one starts a new return.
  const picked = chosen ?? drafts.data?.[0]?.id ?? NEW_RETURN;

  const add = async () => {
    setSaving(true);
    try {
      const transferId =
        picked === NEW_RETURN
          ? (
              await callEndpoint(vendorTransferEndpoints.create, {
                body: {
                  vendor_id: entry.vendor_id,
                  invoice_id: entry.invoice_id,
                  reason: 'blacklisted',
                },
              })
            ).data.id
          : picked;
      const transfer = (
        await callEndpoint(addTransferDevicesEndpoint, {
          params: { id: transferId },
          body: { device_ids: [entry.device_id] },
        })
      ).data;
      await refresh();
      notify.success(
        `${entry.imei} is on ${transfer.code}, a draft return to ${transfer.vendor} of ${counted(transfer.device_count, 'device')}.`,
      );
      onClose();
    } catch (error) {
      showApiError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      {...dialogFocus}
      open
      title={`Return ${entry.imei} to ${entry.vendor}`}
      okText="Add to the return"
      okButtonProps={{ disabled: drafts.isPending }}
      confirmLoading={saving}
      onOk={() => void add()}
      onCancel={onClose}
    >
      <Typography.Paragraph type="secondary">
        The device goes on a draft return to its vendor; it leaves when the return is packed and
        shipped, on the vendor directory&apos;s Returns to vendor tab.
      </Typography.Paragraph>
      {drafts.isError && (
        <Alert type="error" showIcon title="The vendor's draft returns could not be loaded." />
      )}
      {drafts.isPending ? (
        <Spin />
      ) : (
        <Radio.Group
          aria-label="Return to vendor"
          value={picked}
          onChange={(event) => setChosen(event.target.value as number)}
        >
          <Space orientation="vertical">
            {(drafts.data ?? []).map((draft) => (
              <Radio key={draft.id} value={draft.id}>
                {draft.code}: {draft.reason.replace(/_/g, ' ')},{' '}
                {counted(draft.device_count, 'device')}, {dollars(draft.devices_cost_cents)}
                {draft.invoice_no ? `, invoice ${draft.invoice_no}` : ''}
              </Radio>
            ))}
            <Radio value={NEW_RETURN}>A new return (blacklisted)</Radio>
          </Space>
        </Radio.Group>
      )}
    </Modal>
  );
}
