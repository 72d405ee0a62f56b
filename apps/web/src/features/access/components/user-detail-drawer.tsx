import type { User } from '@inventory/contract';
import {
  Alert,
  Button,
  Descriptions,
  Drawer,
  Empty,
  List,
  Popconfirm,
  Tag,
  Typography,
} from 'antd';
import { Link } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { useCan } from '../../../shell/use-can';
import { useEndSessions, useUserActivity, useUserSessions } from '../api/access.queries';
import { useDialogFocus } from '../../../shell/dialog-focus';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/** A user's details, open sessions (sign out everywhere) and recent activity. */
export function UserDetailDrawer({ user, onClose }: { user: User; onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const canManage = useCan({ permission: 'user.manage' });
  const canAudit = useCan({ permission: 'audit.view-list' });
  const sessions = useUserSessions(user.id);
  const activity = useUserActivity(user.id, canAudit);
  const endSessions = useEndSessions();

  const signOutEverywhere = async () => {
    try {
      const answer = await endSessions.mutateAsync(user.id);
      notify.success(`${answer.data.ended} session(s) ended.`);
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <Drawer {...dialogFocus} open size={560} title={user.name} onClose={onClose}>
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="User name">{user.user_name}</Descriptions.Item>
        <Descriptions.Item label="Type">{user.type}</Descriptions.Item>
        <Descriptions.Item label="Status">{user.status}</Descriptions.Item>
        <Descriptions.Item label="Roles">
          {user.roles.map((role) => (
            <Tag key={role.id}>{role.name}</Tag>
          ))}
        </Descriptions.Item>
        <Descriptions.Item label="Last sign-in">{when(user.last_login_at)}</Descriptions.Item>
        {user.type === 'agent' && (
          <Descriptions.Item label="RAD rep ID">{user.rep_id ?? '—'}</Descriptions.Item>
        )}
      </Descriptions>

      <Typography.Title level={5} style={{ marginTop: 24 }}>
        Open sessions
      </Typography.Title>
      {/* Refused for an account that holds more than the reader: the answer says why. */}
      {sessions.error ? (
        <Alert type="warning" showIcon title={sessions.error.message} />
      ) : (
        <List
          size="small"
          loading={sessions.isPending}
          dataSource={sessions.data ?? []}
          locale={{ emptyText: 'No open sessions.' }}
          renderItem={(session) => (
            <List.Item>
              <List.Item.Meta
                title={`Signed in ${when(session.created_at)} from ${session.ip ?? 'unknown address'}`}
                description={`Last request ${when(session.last_seen_at)} · ${session.user_agent ?? ''}`}
              />
            </List.Item>
          )}
        />
      )}
      {canManage && (sessions.data?.length ?? 0) > 0 && (
        <Popconfirm title={`Sign ${user.user_name} out everywhere?`} onConfirm={signOutEverywhere}>
          <Button danger style={{ marginTop: 8 }}>
            Sign out everywhere
          </Button>
        </Popconfirm>
      )}

      <Typography.Title level={5} style={{ marginTop: 24 }}>
        Recent activity
      </Typography.Title>
      {canAudit ? (
        <List
          size="small"
          loading={activity.isPending}
          dataSource={activity.data ?? []}
          locale={{ emptyText: 'No activity yet.' }}
          renderItem={(event) => (
            <List.Item>
              <List.Item.Meta
                title={event.action}
                description={`${when(event.at)} by ${event.actor_name ?? 'system'}${event.ip ? ` from ${event.ip}` : ''}`}
              />
            </List.Item>
          )}
        />
      ) : (
        <Empty description="Reading activity needs the permission audit.view-list." />
      )}
      {canAudit && (
        <Link to={`/audit-log?actor_id=${user.id}`}>All they did, in the audit log</Link>
      )}
    </Drawer>
  );
}
