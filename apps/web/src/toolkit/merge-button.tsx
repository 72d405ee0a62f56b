import type { EndpointDefinition, mergeBodySchema } from '@inventory/contract';
import { Button, Modal, Select, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../shell/api-errors';
import { callEndpoint } from '../shell/http-client';
import { notify } from '../shell/notify';
import type { Option } from './resource-page-config';
import { useDialogFocus } from '../shell/dialog-focus';

/**
 * Merge a duplicate row into the one to keep: the server repoints every use and deletes the
 * duplicate. The choice is confirmed, since a merge cannot be undone.
 */
export function MergeButton({
  endpoint,
  id,
  title,
  load,
  onMerged,
}: {
  endpoint: EndpointDefinition & { readonly body: typeof mergeBodySchema };
  id: number;
  title: string;
  load: (search: string) => Promise<Option[]>;
  onMerged: () => void;
}) {
  const dialogFocus = useDialogFocus();
  const [open, setOpen] = useState(false);
  const [into, setInto] = useState<number | undefined>();
  const [options, setOptions] = useState<Option[]>([]);
  const [busy, setBusy] = useState(false);
  const search = async (term: string) => {
    try {
      setOptions((await load(term)).filter((option) => option.value !== id));
    } catch (error) {
      showApiError(error);
    }
  };

  const merge = async () => {
    // The button is disabled until a row is chosen.
    if (into === undefined) return;
    setBusy(true);
    try {
      await callEndpoint(endpoint, { params: { id }, body: { into } });
      notify.success(`${title} is merged.`);
      setOpen(false);
      onMerged();
    } catch (error) {
      showApiError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        size="small"
        onClick={() => {
          setOpen(true);
          void search('');
        }}
      >
        Merge
      </Button>
      <Modal
        {...dialogFocus}
        open={open}
        title={`Merge ${title} into…`}
        okText="Merge"
        okButtonProps={{ danger: true, disabled: !into, loading: busy }}
        onOk={() => void merge()}
        onCancel={() => setOpen(false)}
      >
        <Typography.Paragraph>
          Everything that uses {title} will use the row you choose, and {title} is deleted. This
          cannot be undone.
        </Typography.Paragraph>
        <Select
          aria-label="Merge into"
          style={{ width: '100%' }}
          showSearch={{ filterOption: false, onSearch: (term) => void search(term) }}
          value={into}
          onChange={setInto}
          options={options}
          placeholder="Type to search"
        />
      </Modal>
    </>
  );
}
