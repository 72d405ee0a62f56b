import { ConfigProvider, notification } from 'antd';
import { createElement, type ReactNode } from 'react';
import { THEME } from './theme';

// antd's own container renders outside every layout: it gets the app's theme here.
ConfigProvider.config({
  holderRender: (children) => createElement(ConfigProvider, { theme: THEME }, children),
});

/**
 * UX.md: the primary action sits at the top right where no notification covers it. The header
 * (64 px), the content's padding (24 px) and the title row with its buttons (about 40 px) end near
 * 128 px: notifications start below them, still at the top right. A drawer's own buttons, in its
 * header, stay clear too.
 */
export const NOTIFICATION_TOP = 140;
notification.config({ top: NOTIFICATION_TOP });

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
