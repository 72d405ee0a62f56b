import DownOutlined from '@ant-design/icons/DownOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';
import { Button, Dropdown } from 'antd';

const NAME_STYLE = {
  display: 'inline-block',
  maxWidth: 'min(30vw, 240px)',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  verticalAlign: 'bottom',
} as const;

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
        {/* A long name is cut short so that the header fits a phone (360 px wide). */}
        <span style={NAME_STYLE}>{userName}</span> <DownOutlined />
      </Button>
    </Dropdown>
  );
}
