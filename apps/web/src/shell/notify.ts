import { ConfigProvider, notification } from 'antd';
import { createElement, type ReactNode } from 'react';
import { THEME } from './theme';

// antd's own container renders outside every layout: it gets the app's theme here.
ConfigProvider.config({
  holderRender: (children) => createElement(ConfigProvider, { theme: THEME }, children),
});

/**
 * Notifications at the top right, titled 'Successes' or 'Error' (spec section 8). antd's own
 * container is used rather than a holder inside a layout, so a notification outlives the page that
 * raised it: the password change's success stays on screen after the move to /login.
 */
export const notify = {
  success(description: ReactNode) {
    notification.success({ title: 'Successes', description, placement: 'topRight' });
  },
  error(description: ReactNode) {
    notification.error({ title: 'Error', description, placement: 'topRight' });
  },
};
