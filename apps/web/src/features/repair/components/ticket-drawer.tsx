import { Drawer } from 'antd';
import type { ReactNode } from 'react';
import { useDialogFocus } from '../../../shell/dialog-focus';

/** A step's form on one ticket, in a drawer that takes and gives back the focus (UX.md). */
export function TicketDrawer({
  title,
  onClose,
  children,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const dialogFocus = useDialogFocus();
  return (
    <Drawer {...dialogFocus} open size={640} title={title} onClose={onClose}>
      {children}
    </Drawer>
  );
}
