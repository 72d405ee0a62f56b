import { App } from 'antd';
import { useEffect } from 'react';
import type { ReactNode } from 'react';

type Notifier = ReturnType<typeof App.useApp>['notification'];
let notifier: Notifier | null = null;

/** Mounted inside antd's App so that code outside components can notify. */
export function NotificationBridge(): null {
  const { notification } = App.useApp();
  useEffect(() => {
    notifier = notification;
    return () => {
      notifier = null;
    };
  }, [notification]);
  return null;
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
