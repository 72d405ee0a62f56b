import type { PlanPrice } from '@inventory/contract';
import { Tag } from 'antd';

/** A plan's data in words: "4.5 GB", "Unlimited". */
export const dataWords = (price: Pick<PlanPrice, 'data_gb'>) =>
  price.data_gb === null ? 'Unlimited' : `${price.data_gb} GB`;

const STATUS_COLORS = { current: 'green', scheduled: 'blue', past: 'default' } as const;
const STATUS_WORDS = { current: 'Current', scheduled: 'Scheduled', past: 'Past' } as const;

/** A version's status as a tag. */
export const priceStatusTag = (price: Pick<PlanPrice, 'status'>) => (
  <Tag color={STATUS_COLORS[price.status]}>{STATUS_WORDS[price.status]}</Tag>
);

/** A plan's data with the warning when it is below the Lifeline minimum it is held to. */
export const dataWithWarning = (price: PlanPrice) => (
  <>
    {dataWords(price)}
    {price.below_minimum && (
      <Tag color="orange" style={{ marginLeft: 8 }}>
        Below Lifeline minimum ({price.minimum_gb} GB)
      </Tag>
    )}
  </>
);
