import { ConfigProvider, type ThemeConfig } from 'antd';
import type { ReactNode } from 'react';
import { CSP_NONCE } from './csp-nonce';
import './base.css';
import './contrast.css';

/**
 * Whoever asks their system for less motion gets antd without its animations (WCAG 2.3.3); read
 * once, at load. The browser tests ask for it too, so that no click lands on a dialog still
 * zooming in.
 */
const REDUCED_MOTION =
  typeof window.matchMedia === 'function' &&
  window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * antd's defaults put white on #1677ff (4.1:1), placeholders at 25% black and tag text in light
 * shades (green 3.4:1, gold 2.8:1): below the 4.5:1 contrast that WCAG AA asks of text
 * (QUALITY.md item 7, checked by axe in the browser tests). These tokens keep antd's look, one
 * shade darker where it matters, with text everyone can read; tags are in contrast.css. A hover
 * darkens instead of lightening: antd's lighter hover blue on an info alert's tint read 3.3:1.
 */
export const THEME: ThemeConfig = {
  token: {
    colorPrimary: '#0958d9',
    colorPrimaryHover: '#003eb3',
    colorLink: '#0958d9',
    colorLinkHover: '#003eb3',
    colorInfo: '#0958d9',
    colorSuccess: '#237804',
    colorWarning: '#ad4e00',
    colorError: '#cf1322',
    colorTextSecondary: 'rgba(0, 0, 0, 0.62)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.58)',
    colorTextDescription: 'rgba(0, 0, 0, 0.62)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
    motion: !REDUCED_MOTION,
  },
};

/** antd's style tags carry the page's nonce, or the server's policy refuses them. */
const CSP = { nonce: CSP_NONCE };

/** The app's theme around a layout or a page that stands alone (the login page). */
export function AppTheme({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider theme={THEME} csp={CSP}>
      {children}
    </ConfigProvider>
  );
}
