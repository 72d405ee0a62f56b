import type { InputRef } from 'antd';
import { useCallback, useEffect, type FocusEvent, type RefObject } from 'react';

/** What holds the focus for a while above a station: a dialog, a drawer, a bubble, a menu. */
const LAYERS =
  '[role="dialog"], [role="tooltip"], .ant-modal-root, .ant-drawer, .ant-popover, .ant-dropdown';

/** Where a person types: the scanner leaves these alone. */
const FIELDS = 'input, textarea, select';

const isShown = (element: Element) =>
  typeof element.checkVisibility === 'function' ? element.checkVisibility() : true;

/** The focus is on nothing: the page, or an element gone or hidden under it. */
const isLost = (element: Element | null) =>
  !element || element === document.body || !element.isConnected || !isShown(element);

/** The element is in a layer that is open on the page. */
const inOpenLayer = (element: Element | null) =>
  element instanceof HTMLElement && !isLost(element) && element.closest(LAYERS) !== null;

/** A person types here: a field of the page or of an open layer. */
const isField = (element: Element | null) =>
  element instanceof HTMLElement &&
  !isLost(element) &&
  (element.isContentEditable || element.closest(FIELDS) !== null);

export type WedgeScanner = {
  /** Puts the focus back in the scan field once the current event is over, unless a layer is open. */
  readonly refocus: () => void;
  /** The scan field's blur: a click on the page's background gives the focus back to it. */
  readonly onBlur: (event: FocusEvent) => void;
};

/**
 * A keyboard-wedge scanner types a code and Enter into whatever has the focus, so a station keeps
 * the focus in its scan field (`ref`, given to ScanInput). While `active`:
 * - a character typed outside any field (on a button, on the page) goes to the scan field; Tab,
 *   Enter, Space and the arrows still work the buttons, so the page stays usable from the keyboard;
 * - when a dialog, drawer or bubble closes, the focus goes back to the scan field, whether the
 *   layer gave it back to the control that opened it (shell/dialog-focus.ts) or to nothing;
 * - a click on the page's background gives it back too.
 */
export function useWedgeScanner(ref: RefObject<InputRef | null>, active: boolean): WedgeScanner {
  const refocus = useCallback(() => {
    setTimeout(() => {
      if (!inOpenLayer(document.activeElement)) ref.current?.focus();
    }, 0);
  }, [ref]);

  useEffect(() => {
    if (!active) return;
    const redirect = (event: KeyboardEvent) => {
      if (event.key.length !== 1 || event.key === ' ') return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const focused = document.activeElement;
      if (isField(focused) || inOpenLayer(focused)) return;
      ref.current?.focus();
    };
    // The layer the focus was last in. When the focus lands outside it, or the layer closes
    // under the focus and leaves it on nothing, the layer is done with: the scan field takes it.
    let layer: Element | null = null;
    const watcher = new MutationObserver(() => {
      if (!layer || !isLost(layer)) return;
      layer = null;
      watcher.disconnect();
      if (isLost(document.activeElement)) ref.current?.focus();
    });
    const arrived = (event: globalThis.FocusEvent) => {
      const target = event.target as Element | null;
      const into = target instanceof Element ? target.closest(LAYERS) : null;
      if (into) {
        if (into !== layer) {
          layer = into;
          watcher.observe(document.body, { childList: true, subtree: true, attributes: true });
        }
        return;
      }
      if (!layer) return;
      layer = null;
      watcher.disconnect();
      if (!isField(target)) refocus();
    };
    document.addEventListener('keydown', redirect, true);
    document.addEventListener('focusin', arrived);
    return () => {
      document.removeEventListener('keydown', redirect, true);
      document.removeEventListener('focusin', arrived);
      watcher.disconnect();
    };
  }, [active, ref, refocus]);

  const onBlur = useCallback(
    (event: FocusEvent) => {
      if (!event.relatedTarget) refocus();
    },
    [refocus],
  );
  return { refocus, onBlur };
}
