import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { RESULT_TITLE } from './page-styles';

export default function NotFoundPage() {
  return (
    <Result
      status="404"
      title={<h1 style={RESULT_TITLE}>404</h1>}
      subTitle="There is no page at this address."
      extra={
        <Link to="/">
          <Button type="primary">Back to the home page</Button>
        </Link>
      }
    />
  );
}
