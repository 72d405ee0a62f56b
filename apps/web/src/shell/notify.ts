import { notification } from 'antd';
import { createElement, useEffect, type ReactElement, type ReactNode } from 'react';

type Notifier = ReturnType<typeof notification.useNotification>[0];
let notifier: Notifier | null = null;

/**
 * Mounted once in the signed-in layouts so that code outside components can notify. Uses the
 * notification hook alone: antd's App would also bring modal and message to every cold load.
 */
export function NotificationBridge(): ReactElement {
  const [api, holder] = notification.useNotification({ placement: 'topRight' });
  useEffect(() => {
    notifier = api;
    return () => {
      notifier = null;
    };
  }, [api]);
  return createElement('div', null, holder);
}

/** Notifications at the top right, titled 'Successes' or 'Error' (spec section 8). */
export const notify = {
  success(description: ReactNode) {
    notifier?.success({ title: 'Successes', description, placement: 'topRight' });
  },
  error(description: ReactNode) {
    notifier?.error({ title: 'Error', description, placement: 'topRight' });
  },
};
