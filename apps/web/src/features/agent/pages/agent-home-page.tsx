import { Typography } from 'antd';
import type { PageProps } from '../../../shell/page-types';

/** The agent's home page; its figures come with the SIM work, so it says so plainly. */
export default function AgentHomePage({ entry }: PageProps) {
  return (
    <>
      <Typography.Title level={3}>Home</Typography.Title>
      <Typography.Paragraph>{entry.summary}</Typography.Paragraph>
      <Typography.Paragraph strong>
        This page is not built yet. It shows no data until the SIM work is delivered.
      </Typography.Paragraph>
    </>
  );
}
