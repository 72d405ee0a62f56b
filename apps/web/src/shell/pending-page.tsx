import { pageStyles } from './page-styles';

/**
 * A page that is registered, guarded and reachable, and says plainly that it is not built yet.
 * It reads only the entry's words, so it needs nothing of page-types.ts, which loads it.
 */
export default function PendingPage({ entry }: { entry: { label: string; summary: string } }) {
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
