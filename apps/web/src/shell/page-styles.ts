import type { CSSProperties } from 'react';

/**
 * Plain styles for the shell's simplest pages. Pages reached by the 200px link prefetch are kept
 * free of heavy components, since everything they import joins the shell's cold load.
 */
export const pageStyles = {
  title: { fontSize: 22, fontWeight: 600, margin: '0 0 16px' },
  text: { fontSize: 14, lineHeight: 1.6, color: 'rgba(0, 0, 0, 0.75)', maxWidth: 720 },
  panel: {
    background: '#fff',
    border: '1px solid #f0f0f0',
    borderRadius: 8,
    padding: 24,
  },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))',
    gap: 16,
  },
} satisfies Record<string, CSSProperties>;

/**
 * The one h1 of a page built with antd's Typography (UX.md): level 1 for every reader, at the size
 * of the level 3 the pages were first drawn with.
 */
export const PAGE_TITLE_STYLE = {
  margin: 0,
  fontSize: 24,
  lineHeight: 1.35,
} satisfies CSSProperties;

/** A Result's title made the page's h1, drawn as antd draws the title. */
export const RESULT_TITLE = {
  margin: 0,
  fontSize: 'inherit',
  fontWeight: 'inherit',
  lineHeight: 'inherit',
} satisfies CSSProperties;
