import {
  createPlanPriceSchema,
  expirePlanPriceSchema,
  GOV_PROGRAMME_LABELS,
  GOV_PROGRAMMES,
  MINIMUM_STANDARD_PROGRAMMES,
  planPriceEndpoints,
  PRICE_STATE_CODES,
  READ_ONLY_PROGRAMMES,
  schedulePlanPriceChangeSchema,
  type GovProgramme,
  type LifelineMinimum,
  type PlanPrice,
} from '@inventory/contract';
import { Alert } from 'antd';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { centsOf, dollars } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import type { FormField, FormValues, Option } from '../../../toolkit/resource-page-config';
import { useLifelineMinimums, usePlanPriceWrites } from '../api/plan-prices.queries';

type Values = FormValues<string>;

/** Today as the server counts days (UTC): the first day a new price may start. */
export const todayUtc = () => new Date().toISOString().slice(0, 10);

export const PROGRAMME_OPTIONS: Option[] = GOV_PROGRAMMES.map((programme) => ({
  value: programme,
  label: GOV_PROGRAMME_LABELS[programme],
}));

/** The states a price may name; a price with none is every state's. */
export const STATE_OPTIONS: Option[] = PRICE_STATE_CODES.map((code) => ({
  value: code,
  label: code,
}));

const DAY_HINT = 'YYYY-MM-DD';

/** The terms of a plan, shared by a new price and a change. */
const TERM_FIELDS: FormField[] = [
  {
    name: 'device_price',
    label: 'Device price (co-pay)',
    kind: 'number',
    min: 0,
    step: 0.01,
    precision: 2,
    suffix: '$',
    required: true,
    help: 'What the subscriber pays for the device; 0 for a free handset.',
  },
  { name: 'plan_name', label: 'Plan', kind: 'text', required: true },
  {
    name: 'data_gb',
    label: 'Data (GB a month)',
    kind: 'number',
    min: 0,
    step: 0.5,
    precision: 2,
    help: 'Leave empty for unlimited data.',
  },
  {
    name: 'minutes',
    label: 'Minutes a month',
    kind: 'number',
    min: 0,
    step: 100,
    precision: 0,
    help: 'Leave empty for unlimited minutes.',
  },
];

const number = (value: unknown) =>
  value === undefined || value === null || value === '' ? null : Number(value);
const text = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/** The standard in effect on a day: the latest that started by then. */
const standardOn = (standards: readonly LifelineMinimum[], day: string) =>
  standards.find((standard) => standard.effective_from <= day) ?? null;

/**
 * The form's warning when the plan gives less data than the Lifeline minimum in effect when the
 * price starts (today for a day already past): saved all the same.
 */
function MinimumNotice({
  programme,
  dataGb,
  from,
}: {
  programme: unknown;
  dataGb: unknown;
  from: unknown;
}) {
  const standards = useLifelineMinimums().data?.standards ?? [];
  const gb = number(dataGb);
  if (!MINIMUM_STANDARD_PROGRAMMES.includes(programme as GovProgramme) || gb === null) return null;
  const start = typeof from === 'string' && from > todayUtc() ? from : todayUtc();
  const standard = standardOn(standards, start);
  if (!standard || gb >= standard.data_gb) return null;
  return (
    <Alert
      type="warning"
      showIcon
      role="alert"
      title={`${gb} GB a month is below the Lifeline minimum service standard of ${standard.data_gb} GB (from ${standard.effective_from}).`}
      description="The price can be saved; the list marks it until the plan gives enough data."
    />
  );
}

const ADD_FIELDS: FormField[] = [
  {
    name: 'carrier_id',
    label: 'Client carrier',
    kind: 'remote',
    load: pickerLoader(planPriceEndpoints.carrierOptions),
    required: true,
  },
  {
    name: 'programme',
    label: 'Programme',
    kind: 'select',
    options: PROGRAMME_OPTIONS.filter(
      (option) => !READ_ONLY_PROGRAMMES.includes(option.value as GovProgramme),
    ),
    required: true,
  },
  {
    name: 'state',
    label: 'State',
    // Searched as typed: fifty-six codes are too many to scroll through.
    kind: 'remote',
    load: async (search) =>
      STATE_OPTIONS.filter((option) => option.label.startsWith(search.trim().toUpperCase())),
    placeholder: 'Every state',
    help: 'Leave empty for every state; a state’s own price wins over it.',
  },
  {
    name: 'model_id',
    label: 'Model',
    kind: 'remote',
    load: pickerLoader(planPriceEndpoints.modelOptions),
    required: true,
  },
  {
    name: 'variant_id',
    label: 'Variant',
    kind: 'remote',
    load: pickerLoader(planPriceEndpoints.variantOptions),
    help: 'Leave empty for the model’s price; a variant’s own price wins over it.',
  },
  ...TERM_FIELDS,
  {
    name: 'effective_from',
    label: 'Effective from',
    kind: 'text',
    placeholder: DAY_HINT,
    required: true,
    help: 'The first day, today at the earliest.',
  },
  {
    name: 'effective_to',
    label: 'Effective to',
    kind: 'text',
    placeholder: DAY_HINT,
    help: 'The last day; leave empty until a change or an expiry closes it.',
  },
  { name: 'note', label: 'Note', kind: 'textarea' },
];

/** A new price: the first version of its key, or one after the key's last. */
export function AddPriceDrawer({ onClose }: { onClose: () => void }) {
  const writes = usePlanPriceWrites();
  return (
    <ActionDrawer
      title="Add a price"
      intro="Versions of one price (carrier, programme, state, model, variant) never share a day: a price that overlaps another is refused, naming it."
      fields={ADD_FIELDS}
      schema={createPlanPriceSchema}
      initialValues={{ programme: 'lifeline', effective_from: todayUtc() }}
      submitLabel="Add price"
      notice={(values) => (
        <MinimumNotice
          programme={values.programme}
          dataGb={values.data_gb}
          from={values.effective_from}
        />
      )}
      run={async (values: Values) => {
        const created = await writes.create.mutateAsync({
          carrier_id: Number(values.carrier_id),
          programme: values.programme as GovProgramme,
          state: text(values.state),
          model_id: Number(values.model_id),
          variant_id: number(values.variant_id),
          device_price_cents: centsOf(Number(values.device_price ?? 0)),
          plan_name: String(values.plan_name ?? ''),
          data_gb: number(values.data_gb),
          minutes: number(values.minutes),
          effective_from: String(values.effective_from ?? ''),
          effective_to: text(values.effective_to),
          note: text(values.note),
        });
        return `Version ${created.version} of the ${created.state ?? 'every-state'} price of ${created.model_name} is added.`;
      }}
      onClose={onClose}
    />
  );
}

const CHANGE_FIELDS: FormField[] = [
  {
    name: 'effective_from',
    label: 'Change from',
    kind: 'text',
    placeholder: DAY_HINT,
    required: true,
    help: 'Tomorrow at the earliest: every order of today keeps today’s price.',
  },
  ...TERM_FIELDS,
  { name: 'note', label: 'Note', kind: 'textarea' },
];

/** What a price is called in titles: "Lifeline TX, Samsung Galaxy A15 (v2)". */
export const priceTitle = (price: PlanPrice) =>
  `${GOV_PROGRAMME_LABELS[price.programme]} ${price.state ?? 'every state'}, ${price.model_name}${
    price.variant_sku ? ` ${price.variant_sku}` : ''
  } (v${price.version})`;

/** A change of a version: a new version from a later day, which ends this one the day before. */
export function ScheduleChangeDrawer({
  price,
  onClose,
}: {
  price: PlanPrice;
  onClose: () => void;
}) {
  const writes = usePlanPriceWrites();
  return (
    <ActionDrawer
      title={`Schedule a change of ${priceTitle(price)}`}
      intro={`Now ${dollars(price.device_price_cents)}, ${price.plan_name}. The change is a new version; this one ends the day before it starts.`}
      fields={CHANGE_FIELDS}
      schema={schedulePlanPriceChangeSchema}
      initialValues={{
        device_price: price.device_price_cents / 100,
        plan_name: price.plan_name,
        data_gb: price.data_gb,
        minutes: price.minutes,
        note: price.note,
      }}
      submitLabel="Schedule change"
      notice={(values) => (
        <MinimumNotice
          programme={price.programme}
          dataGb={values.data_gb}
          from={values.effective_from}
        />
      )}
      run={async (values: Values) => {
        const created = await writes.scheduleChange.mutateAsync({
          id: price.id,
          body: {
            effective_from: String(values.effective_from ?? ''),
            device_price_cents: centsOf(Number(values.device_price ?? 0)),
            plan_name: String(values.plan_name ?? ''),
            data_gb: number(values.data_gb),
            minutes: number(values.minutes),
            note: text(values.note),
          },
        });
        return `Version ${created.version} starts on ${created.effective_from}.`;
      }}
      onClose={onClose}
    />
  );
}

const EXPIRE_FIELDS: FormField[] = [
  {
    name: 'last_day',
    label: 'Last day',
    kind: 'text',
    placeholder: DAY_HINT,
    required: true,
    help: 'Today at the earliest. From the day after, orders find no price for this key.',
  },
];

/** An expiry: the version's last day. */
export function ExpireDrawer({ price, onClose }: { price: PlanPrice; onClose: () => void }) {
  const writes = usePlanPriceWrites();
  return (
    <ActionDrawer
      title={`Expire ${priceTitle(price)}`}
      fields={EXPIRE_FIELDS}
      schema={expirePlanPriceSchema}
      initialValues={{ last_day: todayUtc() }}
      submitLabel="Expire"
      run={async (values: Values) => {
        const expired = await writes.expire.mutateAsync({
          id: price.id,
          body: { last_day: text(values.last_day) },
        });
        return `${priceTitle(expired)} ends on ${expired.effective_to}.`;
      }}
      onClose={onClose}
    />
  );
}
