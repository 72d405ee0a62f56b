import { COUNT_CAP, LAST_PAGE_CURSOR } from '@inventory/contract';
import { Button, Select, Space, Typography } from 'antd';
import { inText } from './resource-page-config';

const PAGE_SIZES = [20, 50, 100, 200];

/** "1,234 colours", "More than 10,000 devices": the capped count under a list. */
const countText = (
  count: { total: number; capped: boolean } | undefined,
  noun: { singular: string; plural: string },
) => {
  if (!count) return '';
  if (count.capped) return `More than ${COUNT_CAP.toLocaleString()} ${inText(noun.plural)}`;
  const word = count.total === 1 ? noun.singular : inText(noun.plural);
  return `${count.total.toLocaleString()} ${word}`;
};

/**
 * Under every keyset list: the capped count, First, Previous, Next, Last and the page size. Any
 * page costs what the first one costs, so there are no page numbers to jump to.
 */
export function ListPager({
  noun,
  count,
  page,
  cursor,
  limit,
  onChange,
}: {
  readonly noun: { readonly singular: string; readonly plural: string };
  readonly count: { total: number; capped: boolean } | undefined;
  readonly page: { nextCursor: string | null; prevCursor: string | null } | undefined;
  /** The cursor the page shown was read from; none for the first page. */
  readonly cursor: string | undefined;
  readonly limit: number;
  readonly onChange: (changes: { cursor?: string | undefined; limit?: number }) => void;
}) {
  return (
    <Space style={{ width: '100%', justifyContent: 'space-between', marginTop: 12 }} wrap>
      <Typography.Text type="secondary" data-testid="list-count">
        {countText(count, noun)}
      </Typography.Text>
      <Space wrap>
        <Button disabled={!cursor} onClick={() => onChange({ cursor: undefined })}>
          First
        </Button>
        <Button
          disabled={!page?.prevCursor}
          onClick={() => onChange({ cursor: page?.prevCursor ?? undefined })}
        >
          Previous
        </Button>
        <Button
          disabled={!page?.nextCursor}
          onClick={() => onChange({ cursor: page?.nextCursor ?? undefined })}
        >
          Next
        </Button>
        <Button
          disabled={!page?.nextCursor && cursor !== undefined}
          onClick={() => onChange({ cursor: LAST_PAGE_CURSOR })}
        >
          Last
        </Button>
        <Select
          aria-label="Rows per page"
          value={limit}
          options={PAGE_SIZES.map((size) => ({ value: size, label: `${size} / page` }))}
          onChange={(next) => onChange({ limit: next })}
        />
      </Space>
    </Space>
  );
}
