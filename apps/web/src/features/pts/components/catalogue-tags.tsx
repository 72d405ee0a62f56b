import type { TagRef } from '@inventory/contract';
import { Space, Tag } from 'antd';

/** A product's, bundle's or combo's status in colour: active green, anything else grey. */
export const StatusTag = ({ status }: { status: string }) => (
  <Tag color={status === 'active' ? 'green' : 'default'}>{status}</Tag>
);

/** The tags a product, bundle or combo carries, in their colours. */
export function TagList({ tags }: { tags: readonly TagRef[] }) {
  if (tags.length === 0) return <>—</>;
  return (
    <Space size={4} wrap>
      {tags.map((tag) => (
        <Tag key={tag.id} color={tag.color ?? undefined}>
          {tag.name}
        </Tag>
      ))}
    </Space>
  );
}

/** A stock figure while it is read, failed or known. */
export function Figure({
  value,
  loading,
  failed,
}: {
  value: number | null | undefined;
  loading: boolean;
  failed: boolean;
}) {
  if (failed) return <span title="The stock could not be read">?</span>;
  if (loading || value === undefined) return <span aria-label="Counting">…</span>;
  return <>{(value ?? 0).toLocaleString()}</>;
}
