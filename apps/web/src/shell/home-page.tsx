import { Card, Col, Empty, Row, Typography } from 'antd';
import { visibleMenu } from './menu';
import type { PageEntry } from './page-types';
import { PrefetchLink } from './prefetch-link';
import { useProfile } from './use-profile';

/** The home page: a welcome and the pages this user may open, by menu group. */
export default function HomePage({ pages }: { pages: readonly PageEntry[] }) {
  const profile = useProfile();
  const sections = visibleMenu(pages, profile.data);
  return (
    <>
      <Typography.Title level={3}>
        {profile.data ? `Welcome, ${profile.data.name}` : 'Welcome'}
      </Typography.Title>
      {sections.length === 0 && !profile.isPending ? (
        <Empty description="No pages are open to you yet. Ask an administrator for a role." />
      ) : (
        <Row gutter={[16, 16]}>
          {sections.map((section) => (
            <Col key={section.group} xs={24} md={12} xl={8}>
              <Card title={section.group} size="small">
                <ul style={{ margin: 0, paddingLeft: 18 }}>
                  {section.pages.map((page) => (
                    <li key={page.path}>
                      <PrefetchLink to={page.path} prefetch={page.load}>
                        {page.label}
                      </PrefetchLink>
                    </li>
                  ))}
                </ul>
              </Card>
            </Col>
          ))}
        </Row>
      )}
    </>
  );
}
