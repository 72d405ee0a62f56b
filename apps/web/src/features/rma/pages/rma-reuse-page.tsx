import {
  DEVICE_GRADES,
  REUSE_DECISIONS,
  reuseDecisionSchema,
  reuseList,
  reuseListEndpoints,
  type ReuseDecision,
  type ReuseDecisionInput,
  type ReuseRow,
} from '@inventory/contract';
import { Button, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import type { PageProps } from '../../../shell/page-types';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { when } from '../../../toolkit/format';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { useReuseDecision } from '../api/rma.queries';

const DECISION_WORDS: Record<ReuseDecision, string> = {
  approved: 'Approve into consolidation',
  repair: 'Reject to repair',
  scrap: 'Reject to scrap',
  vendor: 'Reject to its vendor',
};

const SOURCE_WORDS: Record<ReuseRow['source'], string> = {
  rma: 'RMA',
  repair: 'Repair line',
  return: 'Returned parcel',
};

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);

/** The re-inspection of one device: the new wipe, the grade and the decision. */
function DecisionDrawer({ device, onClose }: { device: ReuseRow; onClose: () => void }) {
  const decide = useReuseDecision();
  return (
    <ActionDrawer
      title={`Re-inspect ${device.imei}`}
      intro={`Wipe it again and grade it; the blacklist is checked again when you decide. Reused ${device.reuse_count} of ${device.reuse_limit} times.`}
      fields={[
        {
          name: 'decision',
          label: 'Decision',
          kind: 'select',
          required: true,
          options: REUSE_DECISIONS.map((value) => ({ value, label: DECISION_WORDS[value] })),
        },
        { name: 'wipe_method', label: 'Wipe method', kind: 'text', required: true },
        { name: 'wipe_certificate', label: 'Wipe certificate', kind: 'text' },
        {
          name: 'grade',
          label: 'Grade',
          kind: 'select',
          allowClear: true,
          help: 'Needed to approve.',
          options: DEVICE_GRADES.map((grade) => ({ value: grade, label: grade })),
        },
        { name: 'note', label: 'Note', kind: 'textarea' },
      ]}
      schema={reuseDecisionSchema}
      initialValues={{ decision: 'approved', wipe_method: 'NIST 800-88 purge' }}
      submitLabel="Decide"
      run={async (values) => {
        const body: ReuseDecisionInput = {
          decision: values.decision as ReuseDecision,
          wipe_method: String(values.wipe_method ?? '').trim(),
          wipe_certificate: text(values.wipe_certificate),
          grade: (values.grade as ReuseDecisionInput['grade']) ?? undefined,
          note: text(values.note),
        };
        const answer = await decide.mutateAsync({ id: device.id, body });
        if (answer.status === 'hold') {
          return `${device.imei} is on the blacklist: it is held, not approved.`;
        }
        return answer.status === 'reuse'
          ? `${device.imei} is approved for reuse.`
          : `${device.imei} is ${answer.status.replace(/_/g, ' ')}.`;
      }}
      onClose={onClose}
    />
  );
}

const config = (
  onDecide: (device: ReuseRow) => void,
): ResourcePageConfig<ReuseRow, typeof reuseList> => ({
  resource: reuseList,
  endpoints: reuseListEndpoints,
  titleOf: (device) => device.imei,
  searchPlaceholder: 'IMEI',
  header: (
    <Typography.Paragraph type="secondary">
      Devices back from customers and from the repair line. Re-inspect each (a new wipe, the
      blacklist checked again, a grade) and approve it into consolidation, or reject it to repair,
      scrap or its vendor. A device reused as often as the limit is not approved again.
    </Typography.Paragraph>
  ),
  record: {
    href: (device) => `/devices/scan?code=${device.imei}`,
    where: (device) => `Device ${device.imei} in the device lookup`,
  },
  columns: [
    { key: 'imei', title: 'IMEI' },
    { key: 'model', title: 'Model' },
    { key: 'status', title: 'Status' },
    { key: 'source', title: 'Source', render: (device) => SOURCE_WORDS[device.source] },
    { key: 'rma_number', title: 'RMA', render: (device) => device.rma_number ?? '—' },
    { key: 'grade', title: 'Grade', render: (device) => device.grade ?? '—' },
    {
      key: 'reuse_count',
      title: 'Reused',
      render: (device) =>
        device.reuse_count >= device.reuse_limit ? (
          <Tag color="red">
            {device.reuse_count} of {device.reuse_limit}
          </Tag>
        ) : (
          `${device.reuse_count} of ${device.reuse_limit}`
        ),
    },
    {
      key: 'last_decision',
      title: 'Last inspection',
      render: (device) => device.last_decision ?? '—',
    },
    {
      key: 'waiting_since',
      title: 'Waiting since',
      sortKey: 'waiting_since',
      render: (device) => when(device.waiting_since),
    },
  ],
  filters: [
    {
      key: 'status',
      label: 'Status',
      options: [
        { value: 'returned', label: 'Returned' },
        { value: 'repaired', label: 'Repaired' },
      ],
    },
  ],
  rowActions: (device) => (
    <Button size="small" aria-label={`Re-inspect ${device.imei}`} onClick={() => onDecide(device)}>
      Re-inspect
    </Button>
  ),
});

/** The reuse queue (`/RMA/reuse`, DOMAIN.md 4.10). */
export default function RmaReusePage(props: PageProps) {
  const [deciding, setDeciding] = useState<ReuseRow | null>(null);
  // Made once: the toolkit page reads its config in its effects.
  const pageConfig = useMemo(() => config(setDeciding), []);
  return (
    <>
      <ResourcePage {...props} config={pageConfig} />
      {deciding && <DecisionDrawer device={deciding} onClose={() => setDeciding(null)} />}
    </>
  );
}
