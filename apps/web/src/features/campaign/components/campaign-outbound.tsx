import type { Campaign } from '@inventory/contract';
import { Alert, Progress, Select, Space, Spin, Typography } from 'antd';
import { Suspense, type ReactNode } from 'react';
import { useUrlParam } from '../../../shell/use-url-state';
import { useOutboundCampaigns, useRefreshOutboundCampaigns } from '../api/campaigns.queries';
import { ordersToShip, ProgressStep } from './campaign-progress';

/** The step a campaign page moves its orders through, as its progress counts it. */
type OutboundStep = 'labeled' | 'scanned';

const STEP_WORDS: Record<OutboundStep, string> = {
  labeled: 'Labelled',
  scanned: 'Scanned out',
};

/** The campaign's progress, the page's own step as the large bar, read from the server. */
function CampaignProgressBar({ campaign, step }: { campaign: Campaign; step: OutboundStep }) {
  const { progress } = campaign;
  const of = ordersToShip(progress);
  const done = progress[step];
  const other: OutboundStep = step === 'labeled' ? 'scanned' : 'labeled';
  return (
    <section aria-label={`Progress of ${campaign.name}`}>
      <Typography.Text strong>
        {STEP_WORDS[step]}: {done} of {of} order{of === 1 ? '' : 's'}
      </Typography.Text>
      <Progress
        aria-label={`${STEP_WORDS[step]} of campaign ${campaign.name}`}
        data-testid="campaign-progress"
        percent={of === 0 ? 0 : Math.round((done / of) * 100)}
        format={(percent) => `${percent}%`}
      />
      <Space wrap size="large">
        <span>
          Picked <ProgressStep label="Picked" done={progress.picked} of={of} />
        </span>
        <span>
          {STEP_WORDS[other]}{' '}
          <ProgressStep label={STEP_WORDS[other]} done={progress[other]} of={of} />
        </span>
        <Typography.Text type="secondary">
          {progress.waiting} waiting to be picked, {progress.on_hold} on hold
          {progress.cancelled > 0 && `, ${progress.cancelled} cancelled`}
        </Typography.Text>
      </Space>
    </section>
  );
}

/**
 * A campaign's outbound page (DOMAIN.md 4.15): the campaign chosen (kept in the address as
 * `?campaign=`) from those with orders to ship, its progress, and the label desk or the dock
 * scoped to it (`children`), told to read the progress again when it moves.
 */
export function CampaignOutbound({
  step,
  children,
}: {
  step: OutboundStep;
  children: (campaign: Campaign, onProgress: () => void) => ReactNode;
}) {
  const campaigns = useOutboundCampaigns();
  const refresh = useRefreshOutboundCampaigns();
  const [chosen, setChosen] = useUrlParam('campaign');
  const chosenId = Number(chosen) || undefined;
  if (campaigns.error) return <Alert type="error" showIcon title={campaigns.error.message} />;
  if (!campaigns.data) return <Spin />;
  const campaign = campaigns.data.find((one) => one.id === chosenId);
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Select<number>
        aria-label="Campaign"
        placeholder="Choose a campaign"
        style={{ width: 420, maxWidth: '100%' }}
        showSearch={{ optionFilterProp: 'label' }}
        value={campaign?.id}
        onChange={(id) => setChosen(String(id))}
        options={campaigns.data.map((one) => ({
          value: one.id,
          label: `${one.name} · ${one.client_carrier} (${one.progress[step]}/${ordersToShip(one.progress)})`,
        }))}
        notFoundContent="No campaign has orders to ship."
      />
      {chosenId !== undefined && !campaign && (
        <Alert
          type="warning"
          showIcon
          title={`Campaign ${chosenId} has no orders left to ship: choose another.`}
        />
      )}
      {campaign && (
        <>
          <CampaignProgressBar campaign={campaign} step={step} />
          <Suspense fallback={<Spin />}>{children(campaign, refresh)}</Suspense>
        </>
      )}
    </Space>
  );
}
