import type { PageProps } from './page-types';
import { pageStyles } from './page-styles';

/** A page that is registered, guarded and reachable, and says plainly that it is not built yet. */
export default function PendingPage({ entry }: PageProps) {
  return (
    <section style={pageStyles.panel} aria-labelledby="page-title">
      <h1 id="page-title" style={pageStyles.title}>
        {entry.label}
      </h1>
      <p style={pageStyles.text}>{entry.summary}</p>
      <p style={{ ...pageStyles.text, fontWeight: 600 }}>
        This page is not built yet. It shows no data until its work is delivered.
      </p>
    </section>
  );
}
