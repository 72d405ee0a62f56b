import { Result, Typography } from 'antd';
import type { PageProps } from './page-types';

/** A page that is registered, guarded and reachable, and says plainly that it is not built yet. */
export default function PendingPage({ entry }: PageProps) {
  return (
    <Result
      status="info"
      title={entry.label}
      subTitle={
        <>
          <Typography.Paragraph>{entry.summary}</Typography.Paragraph>
          <Typography.Paragraph strong>
            This page is not built yet. It shows no data until its work is delivered.
          </Typography.Paragraph>
        </>
      }
    />
  );
}
