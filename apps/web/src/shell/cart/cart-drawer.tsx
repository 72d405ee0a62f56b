import type { CartItem } from '@inventory/contract';
import { Drawer } from 'antd';
import { CartCheckout } from '../../features/order/components/cart-checkout';
import { useDialogFocus } from '../dialog-focus';

/** The cart's lines, its checkout and the shop to fill it from (the order area's). */
export default function CartDrawer({
  items,
  onClose,
}: {
  items: readonly CartItem[];
  onClose: () => void;
}) {
  const dialogFocus = useDialogFocus();
  return (
    <Drawer {...dialogFocus} title="Cart" open onClose={onClose} size={440}>
      <CartCheckout items={items} />
    </Drawer>
  );
}
