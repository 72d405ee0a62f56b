import { Typography } from 'antd';
import type { ReactNode } from 'react';

/**
 * A station's working area: its columns side by side on a wide screen (the scan log, what the
 * box or queue holds), one above the other on a narrow one.
 */
export function StationColumns({ children }: { children: ReactNode }) {
  return (
    <div
      style={{
        display: 'grid',
        gap: 16,
        gridTemplateColumns: 'repeat(auto-fit, minmax(420px, 1fr))',
      }}
    >
      {children}
    </div>
  );
}

/** One column of a station under its heading, the page's second level. */
export function StationColumn({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <section>
      <Typography.Title level={2} style={{ fontSize: 16 }}>
        {title}
      </Typography.Title>
      {children}
    </section>
  );
}
