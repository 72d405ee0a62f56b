import type { DeviceEvent } from '@inventory/contract';
import { Empty, Space, Tag, Timeline, Typography } from 'antd';
import { when } from '../../../toolkit/format';
import { eventDetails, eventStation, eventWords } from '../device-words';

const EVENT_COLORS: Record<string, string> = {
  received: 'blue',
  held: 'red',
  hold_cleared: 'green',
  returned_to_vendor: 'gray',
  production_started: 'blue',
  reassigned: 'blue',
  graded: 'green',
  failed_qc: 'red',
  regrade_requested: 'orange',
  corrected: 'orange',
  consolidated: 'green',
  added_to_box: 'green',
  removed_from_box: 'gray',
  moved_between_boxes: 'blue',
};

/**
 * A device's life, newest first: when, who, what, the status change (when there is one), where,
 * and the details.
 */
export function DeviceTimeline({ events }: { events: readonly DeviceEvent[] }) {
  if (events.length === 0) return <Empty description="Nothing has happened to this device yet." />;
  return (
    <Timeline
      items={events.map((event) => {
        const station = eventStation(event);
        return {
          key: event.id,
          color: EVENT_COLORS[event.type] ?? 'gray',
          title: when(event.at),
          content: (
            <Space orientation="vertical" size={0} data-testid="timeline-event">
              <Typography.Text strong>{eventWords(event.type)}</Typography.Text>
              <Typography.Text type="secondary">
                by {event.actor_name ?? 'the system'}
                {station ? ` at station ${station}` : ''}
              </Typography.Text>
              {event.from_status !== event.to_status && (
                <span>
                  Status {event.from_status ? <Tag>{event.from_status}</Tag> : 'new'} →{' '}
                  <Tag>{event.to_status ?? '—'}</Tag>
                </span>
              )}
              {event.container && <span>In box {event.container}</span>}
              {eventDetails(event).map((line) => (
                <Typography.Text key={line} type="secondary">
                  {line}
                </Typography.Text>
              ))}
            </Space>
          ),
        };
      })}
    />
  );
}
