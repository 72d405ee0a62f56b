import { Progress, Space, Typography } from 'antd';
import { countText } from './scan-feedback';

/** One count of a station against what was expected: a box's devices, an order's units. */
export type Tally = {
  readonly key: string;
  readonly label: string;
  readonly found: number;
  /** Null when nothing says how many are expected. */
  readonly expected: number | null;
  /** The test id of the count's text. */
  readonly testId?: string;
};

/**
 * What was found against what was expected, each count in words and as a bar: red once more was
 * found than expected, full when they match.
 */
export function ExpectedFound({ tallies }: { tallies: readonly Tally[] }) {
  return (
    <Space orientation="vertical" style={{ width: '100%', marginBottom: 12 }}>
      {tallies.map((tally) => (
        <div key={tally.key}>
          <Typography.Text>
            {tally.label}:{' '}
            <Typography.Text strong data-testid={tally.testId}>
              {countText(tally.found, tally.expected)}
            </Typography.Text>
          </Typography.Text>
          {tally.expected !== null && tally.expected > 0 && (
            <Progress
              aria-label={`${tally.label} of expected`}
              percent={Math.min(Math.round((tally.found / tally.expected) * 100), 100)}
              status={tally.found > tally.expected ? 'exception' : undefined}
              format={() => countText(tally.found, tally.expected)}
            />
          )}
        </div>
      ))}
    </Space>
  );
}
