import { describeAccess, type Access } from '@inventory/contract';
import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { RESULT_TITLE } from './page-styles';

/** Shown for a route the menu hides from this user. */
export function ForbiddenPage({ access }: { access: Access }) {
  return (
    <Result
      status="403"
      title={<h1 style={RESULT_TITLE}>403</h1>}
      subTitle={`You do not have access to this page: it needs ${describeAccess(access)}.`}
      extra={
        <Link to="/">
          <Button type="primary">Back to the home page</Button>
        </Link>
      }
    />
  );
}
