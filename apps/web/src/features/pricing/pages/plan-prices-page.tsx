import {
  EVERY_STATE,
  GOV_PLAN_PRICE_ACCESS,
  GOV_PROGRAMME_LABELS,
  planPriceEndpoints,
  planPriceImport,
  planPriceImportEndpoints,
  planPriceList,
  type PlanPrice,
} from '@inventory/contract';
import { Alert, Button, Popconfirm, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import type { PageProps } from '../../../shell/page-types';
import { useUrlParam } from '../../../shell/use-url-state';
import { dollars } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import { ResourcePage } from '../../../toolkit/resource-page';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { useLifelineMinimums, usePlanPriceWrites } from '../api/plan-prices.queries';
import { LifelineMinimumDrawer } from '../components/lifeline-minimum-drawer';
import {
  AddPriceDrawer,
  ExpireDrawer,
  priceTitle,
  PROGRAMME_OPTIONS,
  ScheduleChangeDrawer,
  STATE_OPTIONS,
} from '../components/price-drawers';
import { PriceHistoryDrawer } from '../components/price-history-drawer';
import { dataWithWarning, priceStatusTag } from '../components/price-words';

/** The price whose history is open, in the address: a reload keeps the drawer open. */
const HISTORY_PARAM = 'history';

/** The list's reading endpoints: its writes are the named actions below, not the toolkit's form. */
const { list, count, get, exportFile } = planPriceEndpoints;
const LIST_ENDPOINTS = { list, count, get, exportFile };

type Acting = { kind: 'change' | 'expire'; price: PlanPrice } | { kind: 'add' | 'minimum' };

/** The standard in effect today, with the way to change it. */
function MinimumBanner({ onChange }: { onChange: () => void }) {
  const current = useLifelineMinimums().data?.current;
  return (
    <Alert
      type="info"
      style={{ marginBottom: 12 }}
      title={
        current
          ? `Lifeline minimum service standard: ${current.data_gb} GB of mobile data a month, since ${current.effective_from}. Lifeline and Tribal plans below it are marked.`
          : 'No Lifeline minimum service standard is set.'
      }
      action={
        <Button size="small" onClick={onChange}>
          Change minimum
        </Button>
      }
    />
  );
}

/** A version's actions: a change, an expiry, a withdrawal before it starts; none for ACP or the past. */
function PriceActions({
  price,
  onAct,
}: {
  price: PlanPrice;
  onAct: (kind: 'change' | 'expire') => void;
}) {
  const writes = usePlanPriceWrites();
  if (price.read_only) return <Tag>Read-only</Tag>;
  if (price.status === 'past') return null;
  const withdraw = async () => {
    try {
      await writes.withdraw.mutateAsync(price.id);
      notify.success(`${priceTitle(price)} is withdrawn.`);
    } catch (error) {
      showApiError(error);
    }
  };
  return (
    <>
      <Button size="small" onClick={() => onAct('change')}>
        Schedule change
      </Button>
      <Button size="small" onClick={() => onAct('expire')}>
        Expire
      </Button>
      {price.status === 'scheduled' && (
        <Popconfirm
          title={`Withdraw ${priceTitle(price)}?`}
          description="It has not started: it is removed. The version before it keeps its last day."
          okText="Withdraw"
          okButtonProps={{ danger: true }}
          onConfirm={withdraw}
        >
          <Button size="small" danger>
            Withdraw
          </Button>
        </Popconfirm>
      )}
    </>
  );
}

/**
 * AirTalk government-plan pricing (DOMAIN.md 4.9): per client carrier, programme, state and model
 * or variant, the device co-pay and the plan with effective dates. Every change is a new version;
 * a key's versions never share a day, started versions are kept, ACP is read-only, and plans below
 * the Lifeline minimum service standard are marked.
 */
export default function PlanPricesPage(props: PageProps) {
  const [acting, setActing] = useState<Acting | null>(null);
  const [historyParam, setHistoryParam] = useUrlParam(HISTORY_PARAM);
  const historyId = Number(historyParam) || null;

  const config = useMemo<ResourcePageConfig<PlanPrice, typeof planPriceList>>(
    () => ({
      resource: { ...planPriceList, manage: GOV_PLAN_PRICE_ACCESS },
      endpoints: LIST_ENDPOINTS,
      titleOf: priceTitle,
      searchPlaceholder: 'Plan or model',
      record: { param: HISTORY_PARAM },
      import: { resource: planPriceImport, endpoints: planPriceImportEndpoints },
      actions: (
        <Button type="primary" onClick={() => setActing({ kind: 'add' })}>
          Add price
        </Button>
      ),
      header: <MinimumBanner onChange={() => setActing({ kind: 'minimum' })} />,
      filters: [
        {
          key: 'carrier_id',
          label: 'Carrier',
          load: pickerLoader(planPriceEndpoints.carrierOptions),
        },
        { key: 'programme', label: 'Programme', options: PROGRAMME_OPTIONS },
        {
          key: 'state',
          label: 'State',
          options: [{ value: EVERY_STATE, label: 'Every state' }, ...STATE_OPTIONS],
        },
        { key: 'model_id', label: 'Model', load: pickerLoader(planPriceEndpoints.modelOptions) },
        {
          key: 'status',
          label: 'Status',
          options: [
            { value: 'current', label: 'Current' },
            { value: 'scheduled', label: 'Scheduled' },
            { value: 'past', label: 'Past' },
          ],
        },
        {
          key: 'below_minimum',
          label: 'Below Lifeline minimum',
          options: [
            { value: 'true', label: 'Below the minimum' },
            { value: 'false', label: 'Meets the minimum' },
          ],
        },
      ],
      columns: [
        {
          key: 'model_name',
          title: 'Model',
          render: (price) =>
            price.variant_sku ? `${price.model_name} (${price.variant_sku})` : price.model_name,
        },
        { key: 'carrier_name', title: 'Carrier' },
        {
          key: 'programme',
          title: 'Programme',
          render: (price) => GOV_PROGRAMME_LABELS[price.programme],
        },
        {
          key: 'state',
          title: 'State',
          sortKey: 'state',
          render: (price) => price.state ?? 'Every state',
        },
        { key: 'version', title: 'Version', render: (price) => `v${price.version}` },
        {
          key: 'device_price_cents',
          title: 'Device price',
          sortKey: 'device_price_cents',
          render: (price) => dollars(price.device_price_cents),
        },
        { key: 'plan_name', title: 'Plan' },
        { key: 'data_gb', title: 'Data', render: dataWithWarning },
        {
          key: 'minutes',
          title: 'Minutes',
          render: (price) => (price.minutes === null ? 'Unlimited' : String(price.minutes)),
        },
        { key: 'effective_from', title: 'From', sortKey: 'effective_from' },
        { key: 'effective_to', title: 'To', render: (price) => price.effective_to ?? 'Open' },
        { key: 'status', title: 'Status', render: priceStatusTag },
        { key: 'note', title: 'Note', hidden: true },
      ],
      rowActions: (price) => (
        <PriceActions price={price} onAct={(kind) => setActing({ kind, price })} />
      ),
    }),
    [],
  );

  return (
    <>
      <ResourcePage {...props} config={config} />
      {acting?.kind === 'add' && <AddPriceDrawer onClose={() => setActing(null)} />}
      {acting?.kind === 'minimum' && <LifelineMinimumDrawer onClose={() => setActing(null)} />}
      {acting?.kind === 'change' && (
        <ScheduleChangeDrawer price={acting.price} onClose={() => setActing(null)} />
      )}
      {acting?.kind === 'expire' && (
        <ExpireDrawer price={acting.price} onClose={() => setActing(null)} />
      )}
      {historyId !== null && (
        <PriceHistoryDrawer
          key={historyId}
          id={historyId}
          onClose={() => setHistoryParam(undefined)}
        />
      )}
    </>
  );
}
