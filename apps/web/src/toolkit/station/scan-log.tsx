import { Alert, Empty, Space, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { TONE_COLORS, type ScanFeedback } from './scan-feedback';
import type { QueuedScan } from './use-scan-queue';

/** One line of a station's scan log: an answered scan, or one of this tab's on its way. */
export type ScanLine<R extends string> = {
  readonly key: string;
  readonly code: string;
  readonly at: string;
  /** The answer; absent while the scan is on its way, or when it never reached the server. */
  readonly result?: R;
  /** The request failed: the scan was not made. */
  readonly failed?: boolean;
  readonly message: string;
  /** The station that scanned it, and who. */
  readonly station?: string | null;
  readonly userName?: string | null;
};

/** The most lines a station's log keeps. */
export const SCAN_LOG_LINES = 50;

/** The log with an answer put on top (newest first), kept to SCAN_LOG_LINES lines. */
export const withAnswer = <R extends string>(
  lines: readonly ScanLine<R>[],
  answer: { readonly code: string; readonly result: R; readonly message: string },
): ScanLine<R>[] =>
  [
    {
      key: `answer-${Date.now()}-${lines.length}`,
      code: answer.code,
      at: new Date().toISOString(),
      result: answer.result,
      message: answer.message,
    },
    ...lines,
  ].slice(0, SCAN_LOG_LINES);

/** A scan of the queue as a line of the log: "Checking" until answered, "Not scanned" if failed. */
export const queuedLine = (scan: QueuedScan): ScanLine<never> => ({
  key: scan.key,
  code: scan.code,
  at: scan.at,
  failed: scan.failure !== undefined,
  message: scan.failure ?? '',
});

/**
 * A station's scan log, newest first: each answer in its tone's colour with its words, the code
 * (copyable), the time, the station and person, the sentence, and the line's next step
 * (`action`) where there is one.
 */
export function ScanLog<R extends string, L extends ScanLine<R>>({
  lines,
  feedback,
  action,
  empty,
}: {
  lines: readonly L[];
  feedback: ScanFeedback<R>;
  action?: (line: L) => ReactNode;
  /** What an empty log says, e.g. "Scan the first IMEI: each answer shows here." */
  empty: string;
}) {
  if (lines.length === 0) return <Empty description={empty} />;
  return (
    <ol aria-label="Scans" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {lines.map((line) => {
        const tone = line.result ? feedback.tones[line.result] : line.failed ? 'error' : null;
        const words = line.result
          ? feedback.words[line.result]
          : line.failed
            ? 'Not scanned'
            : 'Checking';
        return (
          <li key={line.key} data-testid="scan-line" data-result={line.result ?? 'pending'}>
            <Alert
              style={{ marginBottom: 6 }}
              type={tone ?? 'info'}
              title={
                <Space wrap>
                  <Typography.Text strong copyable={{ text: line.code }}>
                    {line.code}
                  </Typography.Text>
                  <Tag color={tone ? TONE_COLORS[tone] : 'default'}>{words}</Tag>
                  <Typography.Text type="secondary">
                    {new Date(line.at).toLocaleTimeString()}
                  </Typography.Text>
                  {line.station && <Tag data-testid="scan-station">{line.station}</Tag>}
                  {line.userName && (
                    <Typography.Text type="secondary">{line.userName}</Typography.Text>
                  )}
                </Space>
              }
              description={line.message || undefined}
              action={action?.(line)}
            />
          </li>
        );
      })}
    </ol>
  );
}
