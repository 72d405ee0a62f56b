import { Typography } from 'antd';
import type { PageProps } from '../../../shell/page-types';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';

/** The agent's home page; its figures come with the SIM work, so it says so plainly. */
export default function AgentHomePage({ entry }: PageProps) {
  return (
    <>
      <Typography.Title level={1} style={{ ...PAGE_TITLE_STYLE, marginBottom: 8 }}>
        Home
      </Typography.Title>
      <Typography.Paragraph>{entry.summary}</Typography.Paragraph>
      <Typography.Paragraph strong>
        This page is not built yet. It shows no data until the SIM work is delivered.
      </Typography.Paragraph>
    </>
  );
}
