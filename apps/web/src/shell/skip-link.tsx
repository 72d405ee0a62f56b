import type { MouseEvent } from 'react';

/** The id of the layouts' main region, where the skip link sends the focus. */
export const MAIN_ID = 'main-content';

/**
 * "Skip to main content", the first thing the keyboard reaches (WCAG 2.4.1): it moves the focus to
 * the page past the header and the side menu. Hidden until focused (base.css). The focus is moved
 * by hand rather than by the address's fragment, which the router would take for a navigation.
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_ID);
    if (!main) return;
    event.preventDefault();
    main.focus();
    main.scrollIntoView({ block: 'start' });
  };
  return (
    <a className="skip-link" href={`#${MAIN_ID}`} onClick={skip}>
      Skip to main content
    </a>
  );
}
