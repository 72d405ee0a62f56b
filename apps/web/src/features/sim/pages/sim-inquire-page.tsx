import { parseIccid, simLifecycle, type SimStory } from '@inventory/contract';
import { Alert, Descriptions, Space, Table, Tag, Timeline, Typography, type InputRef } from 'antd';
import { useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../../shell/http-client';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { when } from '../../../toolkit/format';
import { ScanInput, useWedgeScanner } from '../../../toolkit/station';
import { useSimStory } from '../api/sim-stock.queries';
import { SIM_STATUS_COLORS, simLinkPath, simStepWords } from '../sim-stock-links';

/** The ICCID in the address (a link from the SIM list): its story is read when the page opens. */
const ICCID_PARAM = 'iccid';

/** A SIM's status as its tag. */
const statusTag = (status: SimStory['sim']['status']) => (
  <Tag color={SIM_STATUS_COLORS[status]}>{simLifecycle.stateText(status)}</Tag>
);

function Story({ story }: { story: SimStory }) {
  const { sim } = story;
  return (
    <>
      <Descriptions
        size="small"
        column={{ xs: 1, md: 2 }}
        style={{ marginBottom: 16 }}
        items={[
          { key: 'iccid', label: 'ICCID', children: sim.iccid },
          {
            key: 'status',
            label: 'Status',
            children: <span data-testid="sim-story-status">{statusTag(sim.status)}</span>,
          },
          {
            key: 'carrier',
            label: 'Client carrier',
            children: `${sim.client_carrier}${sim.issuer ? ` (issued by ${sim.issuer})` : ''}`,
          },
          {
            key: 'box',
            label: 'Box / pack',
            children: (
              <Space size={8}>
                <Link to={simLinkPath({ kind: 'box', id: sim.sim_box_id, label: sim.box_code })}>
                  {sim.box_code}
                </Link>
                {sim.sim_pack_id !== null && sim.pack_code && (
                  <Link
                    to={simLinkPath({ kind: 'pack', id: sim.sim_pack_id, label: sim.pack_code })}
                  >
                    {sim.pack_code}
                  </Link>
                )}
              </Space>
            ),
          },
          { key: 'agent', label: 'Agent', children: sim.agent_name ?? '—' },
          { key: 'order', label: 'Order', children: sim.order_number ?? '—' },
          { key: 'device', label: 'Device IMEI', children: sim.device_imei ?? '—' },
          { key: 'mdn', label: 'MDN', children: sim.mdn ?? '—' },
          { key: 'activated', label: 'Activated', children: when(sim.activated_at) },
          {
            key: 'detected',
            label: 'Last detection',
            children: sim.last_detect_state
              ? `${sim.last_detect_state.replace('_', ' ')}, ${when(sim.last_detected_at)}`
              : '—',
          },
          ...(sim.status_reason
            ? [{ key: 'reason', label: 'Reason', children: sim.status_reason }]
            : []),
        ]}
      />
      <Typography.Title level={2} style={{ fontSize: 16 }}>
        Timeline
      </Typography.Title>
      <Timeline
        data-testid="sim-timeline"
        items={story.steps.map((step) => ({
          key: step.id,
          content: (
            <div data-testid="sim-step" data-type={step.type}>
              <Typography.Text strong>{simStepWords(step)}</Typography.Text>{' '}
              {step.to_status && statusTag(step.to_status)}
              <div>
                <Typography.Text type="secondary">
                  {when(step.at)} · {step.actor_name}
                </Typography.Text>
              </div>
              {step.reason && <div>Reason: {step.reason}</div>}
              {step.links.length > 0 && (
                <Space size={8} wrap>
                  {step.links.map((link) => (
                    <Link key={`${link.kind}-${link.id}`} to={simLinkPath(link)}>
                      {link.label}
                    </Link>
                  ))}
                </Space>
              )}
            </div>
          ),
        }))}
      />
      {story.anomalies.length > 0 && (
        <>
          <Typography.Title level={2} style={{ fontSize: 16 }}>
            Anomalies
          </Typography.Title>
          <Table
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={story.anomalies}
            columns={[
              {
                title: 'Kind',
                dataIndex: 'kind',
                render: (kind: string) => kind.replaceAll('_', ' '),
              },
              {
                title: 'Detail',
                dataIndex: 'detail',
                render: (text: string | null) => text ?? '—',
              },
              { title: 'Status', dataIndex: 'status' },
              {
                title: 'Run',
                dataIndex: 'run_id',
                render: (id: number) => (
                  <Link to={simLinkPath({ kind: 'detection', id, label: '' })}>Run {id}</Link>
                ),
              },
              { title: 'Raised', dataIndex: 'created_at', render: (at: string) => when(at) },
            ]}
          />
        </>
      )}
    </>
  );
}

/**
 * The SIM lookup (`/sim/inquire`, DOMAIN.md 4.6), read-only: scan an ICCID and read its story,
 * from the box it came in to its return, each step linked to where it is kept.
 */
export default function SimInquirePage({ entry }: PageProps) {
  const [params, setParams] = useSearchParams();
  // A scan that is no ICCID, said at once; nothing is sent.
  const [misread, setMisread] = useState<string | null>(null);
  const scanField = useRef<InputRef>(null);
  const scanner = useWedgeScanner(scanField, true);
  const asked = params.get(ICCID_PARAM);
  const parsed = asked ? parseIccid(asked) : null;
  const story = useSimStory(parsed?.ok ? parsed.value.iccid : null);

  const scan = (code: string) => {
    const read = parseIccid(code);
    if (!read.ok) {
      setMisread(read.message);
      return;
    }
    setMisread(null);
    if (read.value.iccid === asked) void story.refetch();
    else setParams({ [ICCID_PARAM]: read.value.iccid });
  };

  const error = story.error;
  const problem: { type: 'warning' | 'error'; text: string } | null = misread
    ? { type: 'error', text: misread }
    : parsed && !parsed.ok
      ? { type: 'error', text: parsed.message }
      : error
        ? {
            type: error instanceof ApiError && error.status === 404 ? 'warning' : 'error',
            text: error.message,
          }
        : null;
  const shown = problem ? null : (story.data ?? null);
  return (
    <section aria-label={entry.label}>
      <Typography.Title level={1} style={{ ...PAGE_TITLE_STYLE, marginBottom: 12 }}>
        {entry.label}
      </Typography.Title>
      <ScanInput
        ref={scanField}
        scanner={scanner}
        label="Scan an ICCID"
        placeholder="Scan or type an ICCID, then Enter"
        onScan={scan}
        style={{ marginBottom: 12 }}
      />
      {problem && (
        <Alert
          type={problem.type}
          showIcon
          title={problem.text}
          data-testid="sim-inquiry-problem"
          style={{ marginBottom: 12 }}
        />
      )}
      {story.isFetching && <Typography.Paragraph type="secondary">Reading…</Typography.Paragraph>}
      {!shown && !problem && !story.isFetching && (
        <Typography.Paragraph type="secondary">
          Scan a SIM&apos;s ICCID to read its story: its box and pack, the request that took it, the
          agent, the order or device it went with, the detections and its return.
        </Typography.Paragraph>
      )}
      {shown && <Story story={shown} />}
    </section>
  );
}
