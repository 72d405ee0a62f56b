import {
  createSimReturnSchema,
  SIM_RETURN_REASONS,
  SIM_RETURN_SOURCES,
  simReturnEndpoints,
} from '@inventory/contract';
import { useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { pickerLoader } from '../../../toolkit/picker-options';
import type { FormField } from '../../../toolkit/resource-page-config';

const SOURCE_TEXT = { agent: 'Agent', rma: 'RMA', customer: 'Customer' } as const;

const FIELDS: readonly FormField[] = [
  {
    name: 'source',
    label: 'From',
    kind: 'select',
    required: true,
    options: SIM_RETURN_SOURCES.map((source) => ({ value: source, label: SOURCE_TEXT[source] })),
  },
  {
    name: 'agent_id',
    label: 'Agent',
    kind: 'remote',
    load: pickerLoader(simReturnEndpoints.agentOptions),
    help: "Required for an agent's return; the SIMs scanned in must then be that agent's.",
  },
  {
    name: 'reason',
    label: 'Reason',
    kind: 'select',
    required: true,
    options: SIM_RETURN_REASONS.map((reason) => ({ value: reason, label: reason })),
  },
  { name: 'note', label: 'Note', kind: 'textarea' },
  {
    name: 'iccids',
    label: 'ICCIDs expected (optional)',
    kind: 'words',
    placeholder: 'Scan or type each ICCID, then Enter',
    help: 'What the return should hold: the station shows what was received against it.',
  },
];

/** A new return for an agent (with the ICCIDs expected back), an RMA or a customer. */
export function CreateSimReturnDrawer({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (id: number) => void;
}) {
  const client = useQueryClient();
  return (
    <ActionDrawer
      title="New SIM return"
      intro="Print its label for the envelope, then receive the SIMs by scanning them at its station."
      fields={FIELDS}
      schema={createSimReturnSchema}
      initialValues={{ source: 'agent', reason: 'unused', iccids: [] }}
      submitLabel="Create return"
      run={async (values) => {
        const created = (
          await callEndpoint(simReturnEndpoints.create, {
            body: {
              source: values.source as (typeof SIM_RETURN_SOURCES)[number],
              agent_id: (values.agent_id as number | undefined) ?? null,
              reason: values.reason as (typeof SIM_RETURN_REASONS)[number],
              note: (values.note as string | undefined) ?? null,
              iccids: (values.iccids as string[] | undefined) ?? [],
            },
          })
        ).data;
        await client.invalidateQueries({ queryKey: ['/sim-returns'] });
        onCreated(created.return.id);
        return `SIM return ${created.return.number} is created.`;
      }}
      onClose={onClose}
    />
  );
}
