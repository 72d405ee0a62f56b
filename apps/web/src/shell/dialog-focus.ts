import { useEffect, useId, useState } from 'react';

/** The controls a person types or chooses in; a file input hides behind its upload button. */
const FIELDS = [
  'input:not([type="hidden"]):not([type="file"]):not([disabled])',
  'textarea:not([disabled])',
  'select:not([disabled])',
  'button[role="switch"]:not([disabled])',
  '[contenteditable="true"]',
].join(', ');

const isShown = (element: HTMLElement) =>
  typeof element.checkVisibility === 'function'
    ? element.checkVisibility()
    : element.getClientRects().length > 0;

/** Puts the focus in the first field of a drawer's or dialog's body; true when there was one. */
export function focusFirstField(root: Element | null): boolean {
  const body = root?.querySelector('.ant-drawer-body, .ant-modal-body') ?? root;
  const field = [...(body?.querySelectorAll<HTMLElement>(FIELDS) ?? [])].find(isShown);
  if (!field) return false;
  field.focus();
  return true;
}

/**
 * UX.md: drawers and dialogs put the focus in their first field and give it back on close. Spread
 * the answer on an antd Drawer or Modal: once it has opened, its first field takes the focus (one
 * without a field keeps antd's focus on its panel); when it closes or unmounts, the focus goes
 * back to the control that opened it, unless something else has taken it meanwhile.
 */
export function useDialogFocus(): {
  rootClassName: string;
  afterOpenChange: (open: boolean) => void;
} {
  const rootClassName = `dialog-${useId().replace(/[^\w-]/g, '')}`;
  // The control that had the focus when the dialog was first rendered.
  const [opener] = useState(() =>
    typeof document === 'undefined' ? null : (document.activeElement as HTMLElement | null),
  );

  useEffect(() => {
    // After React has removed the dialog's markup.
    return () => void setTimeout(() => giveBack(opener, rootClassName), 0);
  }, [opener, rootClassName]);

  return {
    rootClassName,
    afterOpenChange: (open: boolean) => {
      if (open) focusFirstField(document.querySelector(`.${rootClassName}`));
      else giveBack(opener, rootClassName);
    },
  };
}

/** The focus back on the opener, when the dialog took it with it or left it on the page. */
function giveBack(opener: HTMLElement | null, rootClassName: string) {
  const current = document.activeElement;
  const lost =
    !current ||
    current === document.body ||
    !current.isConnected ||
    Boolean(current.closest(`.${rootClassName}`));
  if (lost && opener && opener !== document.body && opener.isConnected) {
    opener.focus({ preventScroll: true });
  }
}
