import { ROLE_SORTS, roleList, roleListEndpoints, type Role } from '@inventory/contract';
import { Alert, Button, Input, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useState } from 'react';
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
import { useAllRoles, useDeleteRole } from '../api/access.queries';
import { RoleFormDrawer } from '../components/role-form-drawer';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';

const NO_FILTERS: string[] = [];

/** The address key of the role open in its form drawer. */
const ROLE_PARAM = 'role';

/**
 * Roles with user counts; create, edit the permission matrix, delete unused roles. A role's name
 * opens its form in a drawer (`?role=<id>`).
 */
export default function RolesPage({ entry }: PageProps) {
  const [url, setUrl] = useListUrlState(NO_FILTERS);
  const query = {
    search: url.search,
    sort: ROLE_SORTS.find((sort) => sort === url.sort) ?? roleList.defaultSort,
    order: url.order === 'desc' ? ('desc' as const) : ('asc' as const),
    cursor: url.cursor,
    limit: Number(url.limit ?? 50),
  };
  const roles = useResourceList<Role>(roleListEndpoints, query);
  const count = useResourceCount(roleListEndpoints, query);
  const canManage = useCan({ permission: 'role.manage' });
  const deleteRole = useDeleteRole();
  const [creating, setCreating] = useState(false);
  const [openParam, setOpenParam] = useUrlParam(ROLE_PARAM);
  const openId = Number(openParam) || null;
  const openOnPage = roles.data?.items.find((role) => role.id === openId);
  // A role not on the page shown (a shared link) is found among all of them.
  const allRoles = useAllRoles(Boolean(roles.data && openId !== null && !openOnPage));
  const opened =
    openId === null
      ? undefined
      : (openOnPage ?? allRoles.data?.items.find((role) => role.id === openId));
  const notFound = openId !== null && !opened && allRoles.isSuccess;
  const recordHref = useRecordHref();

  const remove = async (role: Role) => {
    try {
      await deleteRole.mutateAsync(role.id);
      notify.success(`Role ${role.name} deleted.`);
    } catch (error) {
      showApiError(error);
    }
  };

  const { sortOrder, onChange } = tableUrlState<Role>(query, roleList, setUrl);

  const columns: TableProps<Role>['columns'] = [
    {
      title: 'Role',
      fixed: 'left',
      dataIndex: 'name',
      sorter: true,
      sortOrder: sortOrder('name'),
      render: (name: string, role) => (
        <Space>
          <KeyLink to={recordHref(ROLE_PARAM, role.id)} title={`Open role ${name}`} replace>
            {name}
          </KeyLink>
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
        <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
          {entry.label}
        </Typography.Title>
        {canManage && (
          <Button
            type="primary"
            onClick={() => {
              setOpenParam(undefined);
              setCreating(true);
            }}
          >
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
      {notFound && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={`The role #${openId} could not be opened: there is no such role.`}
          action={<Button onClick={() => setOpenParam(undefined)}>Close</Button>}
        />
      )}
      <Table<Role>
        scroll={{ x: 'max-content' }}
        rowKey="id"
        columns={columns}
        dataSource={roles.data?.items}
        loading={roles.isFetching}
        pagination={false}
        onChange={onChange}
      />
      <ListPager
        noun={roleList}
        count={count.data}
        page={roles.data}
        cursor={query.cursor}
        limit={query.limit}
        onChange={setUrl}
      />
      {(creating || opened) && (
        <RoleFormDrawer
          key={creating ? 'new' : opened?.id}
          role={creating ? null : (opened ?? null)}
          onClose={() => (creating ? setCreating(false) : setOpenParam(undefined))}
        />
      )}
    </>
  );
}
