import { Button, Result } from 'antd';
import { Link } from 'react-router';

export default function NotFoundPage() {
  return (
    <Result
      status="404"
      title="404"
      subTitle="There is no page at this address."
      extra={
        <Link to="/">
          <Button type="primary">Back to the home page</Button>
        </Link>
      }
    />
  );
}
