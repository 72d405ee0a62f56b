import {
  USER_SORTS,
  USER_STATUSES,
  USER_TYPES,
  userList,
  userListEndpoints,
  type User,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Dropdown,
  Input,
  Popconfirm,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { TableProps } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { tableUrlState } from '../../../shell/table-url-state';
import { useUrlParam } from '../../../shell/use-url-state';
import { ListPager } from '../../../toolkit/list-pager';
import { useListUrlState } from '../../../toolkit/list-url-state';
import { KeyLink, useRecordHref } from '../../../toolkit/record-link';
import { useResourceCount, useResourceList } from '../../../toolkit/resource-queries';
import {
  useAllRoles,
  useDeleteUser,
  useResetPassword,
  useUpdateUser,
  useUser,
} from '../api/access.queries';
import { TemporaryPasswordModal } from '../components/temporary-password-modal';
import { UserDetailDrawer } from '../components/user-detail-drawer';
import { UserFormDrawer } from '../components/user-form-drawer';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';

const FILTER_KEYS = ['role', 'type', 'status'];

/** The address key of the user whose details are open in a drawer. */
const USER_PARAM = 'user';

/**
 * Users: server-side search, filters, paging and sort; create, edit, reset, disable, delete. A
 * user name opens the user's details in a drawer (`?user=<id>`).
 */
export default function UsersPage({ entry }: PageProps) {
  const [url, setUrl] = useListUrlState(FILTER_KEYS);
  const query = {
    search: url.search,
    role: url.role,
    type: USER_TYPES.find((type) => type === url.type),
    status: USER_STATUSES.find((status) => status === url.status),
    sort: USER_SORTS.find((sort) => sort === url.sort) ?? userList.defaultSort,
    order: url.order === 'desc' ? ('desc' as const) : ('asc' as const),
    cursor: url.cursor,
    limit: Number(url.limit ?? 50),
  };
  const users = useResourceList<User>(userListEndpoints, query);
  const count = useResourceCount(userListEndpoints, query);
  const roles = useAllRoles();
  const canManage = useCan({ permission: 'user.manage' });
  const canAudit = useCan({ permission: 'audit.view-list' });
  const canManageCarrierKeys = useCan({ permission: 'client-carrier-key.manage' });
  const canSeeJobs = useCan({ permission: 'job.view-list' });
  const updateUser = useUpdateUser();
  const deleteUser = useDeleteUser();
  const resetPassword = useResetPassword();
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const [viewingParam, setViewingParam] = useUrlParam(USER_PARAM);
  const viewingId = Number(viewingParam) || null;
  const viewingOnPage = users.data?.items.find((user) => user.id === viewingId);
  const viewingRead = useUser(users.data && viewingId && !viewingOnPage ? viewingId : null);
  const viewing = viewingId === null ? undefined : (viewingOnPage ?? viewingRead.data);
  const recordHref = useRecordHref();
  const [issued, setIssued] = useState<{ userName: string; password: string } | null>(null);

  const act = async (work: () => Promise<unknown>, success: string) => {
    try {
      await work();
      notify.success(success);
    } catch (error) {
      showApiError(error);
    }
  };

  const reset = async (user: User) => {
    try {
      const answer = await resetPassword.mutateAsync(user.id);
      setIssued({ userName: user.user_name, password: answer.data.temporary_password });
    } catch (error) {
      showApiError(error);
    }
  };

  const toggleStatus = (user: User) => {
    const status = user.status === 'active' ? 'disabled' : 'active';
    return act(
      () => updateUser.mutateAsync({ id: user.id, body: { status } }),
      `${user.user_name} ${status === 'active' ? 'enabled' : 'disabled'}.`,
    );
  };

  const { sortOrder, onChange } = tableUrlState<User>(query, userList, setUrl);

  const columns: TableProps<User>['columns'] = [
    {
      title: 'User name',
      fixed: 'left',
      dataIndex: 'user_name',
      sorter: true,
      sortOrder: sortOrder('user_name'),
      render: (value: string, user) => (
        <KeyLink to={recordHref(USER_PARAM, user.id)} title={`Open user ${value}`} replace>
          {value}
        </KeyLink>
      ),
    },
    { title: 'Name', dataIndex: 'name', sorter: true, sortOrder: sortOrder('name') },
    { title: 'Email', dataIndex: 'email', render: (value: string | null) => value ?? '—' },
    { title: 'Type', dataIndex: 'type', render: (value: string) => <Tag>{value}</Tag> },
    {
      title: 'Roles',
      dataIndex: 'roles',
      render: (value: User['roles']) => value.map((role) => <Tag key={role.id}>{role.name}</Tag>),
    },
    {
      title: 'Status',
      dataIndex: 'status',
      render: (value: string) => (
        <Tag color={value === 'active' ? 'green' : 'default'}>{value}</Tag>
      ),
    },
    {
      title: 'Last sign-in',
      dataIndex: 'last_login_at',
      sorter: true,
      sortOrder: sortOrder('last_login_at'),
      render: (value: string | null) => (value ? new Date(value).toLocaleString() : 'Never'),
    },
    ...(canManage
      ? [
          {
            title: 'Actions',
            key: 'actions',
            render: (_: unknown, user: User) => (
              <Space>
                <Button size="small" onClick={() => setEditing(user)}>
                  Edit
                </Button>
                <Dropdown
                  trigger={['click']}
                  menu={{
                    items: [
                      { key: 'reset', label: 'Reset password' },
                      { key: 'status', label: user.status === 'active' ? 'Disable' : 'Enable' },
                    ],
                    onClick: ({ key }) => {
                      if (key === 'reset') void reset(user);
                      else void toggleStatus(user);
                    },
                  }}
                >
                  <Button size="small" aria-label={`More actions for ${user.user_name}`}>
                    More
                  </Button>
                </Dropdown>
                <Popconfirm
                  title={`Delete ${user.user_name}?`}
                  description="The audit log keeps what they did."
                  okText="Delete"
                  okButtonProps={{ danger: true }}
                  onConfirm={() =>
                    act(() => deleteUser.mutateAsync(user.id), `${user.user_name} deleted.`)
                  }
                >
                  <Button size="small" danger>
                    Delete
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
          {entry.label}
        </Typography.Title>
        <Space>
          {canAudit && <Link to="/audit-log">Audit log</Link>}
          {canManageCarrierKeys && <Link to="/users/api-keys">Carrier API keys</Link>}
          {canSeeJobs && <Link to="/users/jobs">Background jobs</Link>}
          {canManage && (
            <Button type="primary" onClick={() => setEditing('new')}>
              New user
            </Button>
          )}
        </Space>
      </Space>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder="Search name, user name or email"
          aria-label="Search users"
          defaultValue={query.search}
          onSearch={(search) => setUrl({ search })}
          style={{ width: 300 }}
        />
        <Select
          allowClear
          placeholder="Role"
          aria-label="Filter by role"
          style={{ width: 220 }}
          value={query.role === undefined ? undefined : Number(query.role)}
          onChange={(role?: number) => setUrl({ role })}
          options={roles.data?.items.map((role) => ({ value: role.id, label: role.name }))}
          showSearch={{ optionFilterProp: 'label' }}
        />
        <Select
          allowClear
          placeholder="Type"
          aria-label="Filter by type"
          style={{ width: 120 }}
          value={query.type}
          onChange={(type?: string) => setUrl({ type })}
          options={USER_TYPES.map((value) => ({ value, label: value }))}
        />
        <Select
          allowClear
          placeholder="Status"
          aria-label="Filter by status"
          style={{ width: 130 }}
          value={query.status}
          onChange={(status?: string) => setUrl({ status })}
          options={USER_STATUSES.map((value) => ({ value, label: value }))}
        />
      </Space>
      {viewingRead.isError && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={`The user #${viewingId} could not be opened.`}
          description={viewingRead.error.message}
          action={<Button onClick={() => setViewingParam(undefined)}>Close</Button>}
        />
      )}
      <Table<User>
        scroll={{ x: 'max-content' }}
        rowKey="id"
        columns={columns}
        dataSource={users.data?.items}
        loading={users.isFetching}
        locale={{
          emptyText: users.isError
            ? `The users could not be loaded: ${users.error.message}`
            : 'No users match.',
        }}
        pagination={false}
        onChange={onChange}
      />
      <ListPager
        noun={userList}
        count={count.data}
        page={users.data}
        cursor={query.cursor}
        limit={query.limit}
        onChange={setUrl}
      />
      {editing && (
        <UserFormDrawer
          user={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      {viewing && <UserDetailDrawer user={viewing} onClose={() => setViewingParam(undefined)} />}
      {issued && (
        <TemporaryPasswordModal
          userName={issued.userName}
          password={issued.password}
          onClose={() => setIssued(null)}
        />
      )}
    </>
  );
}
