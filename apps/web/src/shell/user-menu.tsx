import DownOutlined from '@ant-design/icons/DownOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';
import { Button, Dropdown } from 'antd';

/** The header's user menu: the user name, Change Password and Logout (spec section 2). */
export function UserMenu({
  userName,
  onChangePassword,
  onLogout,
}: {
  userName: string;
  onChangePassword: () => void;
  onLogout: () => void;
}) {
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'password', label: 'Change Password' },
          { key: 'logout', label: 'Logout' },
        ],
        onClick: ({ key }) => (key === 'logout' ? onLogout() : onChangePassword()),
      }}
    >
      <Button type="text" icon={<UserOutlined />} aria-label={`User menu of ${userName}`}>
        {userName} <DownOutlined />
      </Button>
    </Dropdown>
  );
}
