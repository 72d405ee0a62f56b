import { ROLE_SORTS, type Role } from '@inventory/contract';
import { Button, Input, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { tableUrlState } from '../../../shell/table-url-state';
import { useUrlState } from '../../../shell/use-url-state';
import { useDeleteRole, useRoleList } from '../api/office.queries';
import { RoleFormDrawer } from '../components/role-form-drawer';

const URL_KEYS = ['search', 'page', 'pageSize', 'sort', 'order'] as const;

const isSort = (value: unknown): value is (typeof ROLE_SORTS)[number] =>
  ROLE_SORTS.includes(value as never);

/** Roles with user counts; create, edit the permission matrix, delete unused roles. */
export default function RolesPage({ entry }: PageProps) {
  const [url, setUrl] = useUrlState(URL_KEYS);
  const query = {
    search: url.search,
    page: Number(url.page ?? 1),
    pageSize: Number(url.pageSize ?? 50),
    sort: isSort(url.sort) ? url.sort : ('name' as const),
    order: url.order === 'desc' ? ('desc' as const) : ('asc' as const),
  };
  const roles = useRoleList(query);
  const canManage = useCan({ permission: 'role.manage' });
  const deleteRole = useDeleteRole();
  const [editing, setEditing] = useState<Role | 'new' | null>(null);

  const remove = async (role: Role) => {
    try {
      await deleteRole.mutateAsync(role.id);
      notify.success(`Role ${role.name} deleted.`);
    } catch (error) {
      showApiError(error);
    }
  };

  const { sortOrder, pagination, onChange } = tableUrlState<Role>(
    query,
    roles.data?.total,
    setUrl,
    'roles',
  );

  const columns: TableProps<Role>['columns'] = [
    {
      title: 'Role',
      dataIndex: 'name',
      sorter: true,
      sortOrder: sortOrder('name'),
      render: (name: string, role) => (
        <Space>
          <Button type="link" style={{ padding: 0 }} onClick={() => setEditing(role)}>
            {name}
          </Button>
          {role.is_admin && <Tag color="gold">all permissions</Tag>}
          {role.is_system && !role.is_admin && <Tag>default</Tag>}
        </Space>
      ),
    },
    { title: 'Description', dataIndex: 'description' },
    { title: 'Users', dataIndex: 'user_count', sorter: true, sortOrder: sortOrder('user_count') },
    {
      title: 'Permissions',
      dataIndex: 'permissions',
      render: (permissions: string[], role) => (role.is_admin ? 'All' : permissions.length),
    },
    ...(canManage
      ? [
          {
            title: 'Actions',
            key: 'actions',
            render: (_: unknown, role: Role) =>
              role.is_admin || role.is_system ? null : (
                <Popconfirm
                  title={`Delete the role ${role.name}?`}
                  okText="Delete"
                  okButtonProps={{ danger: true }}
                  onConfirm={() => remove(role)}
                >
                  <Button size="small" danger>
                    Delete
                  </Button>
                </Popconfirm>
              ),
          },
        ]
      : []),
  ];

  return (
    <>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {entry.label}
        </Typography.Title>
        {canManage && (
          <Button type="primary" onClick={() => setEditing('new')}>
            New role
          </Button>
        )}
      </Space>
      <Input.Search
        allowClear
        placeholder="Search roles"
        aria-label="Search roles"
        defaultValue={query.search}
        onSearch={(search) => setUrl({ search })}
        style={{ width: 300, marginBottom: 16 }}
      />
      <Table<Role>
        rowKey="id"
        columns={columns}
        dataSource={roles.data?.items}
        loading={roles.isFetching}
        pagination={pagination}
        onChange={onChange}
      />
      {editing && (
        <RoleFormDrawer
          role={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}
