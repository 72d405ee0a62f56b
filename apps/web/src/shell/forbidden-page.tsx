import { describeAccess, type Access } from '@inventory/contract';
import { Button, Result } from 'antd';
import { Link } from 'react-router';

/** Shown for a route the menu hides from this user. */
export function ForbiddenPage({ access }: { access: Access }) {
  return (
    <Result
      status="403"
      title="403"
      subTitle={`You do not have access to this page: it needs ${describeAccess(access)}.`}
      extra={
        <Link to="/">
          <Button type="primary">Back to the home page</Button>
        </Link>
      }
    />
  );
}
