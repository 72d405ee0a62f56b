import type { CartItem } from '@inventory/contract';
import { Button, Drawer } from 'antd';
import { cart } from './cart-store';
import { useDialogFocus } from '../dialog-focus';

const lineStyle = {
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  padding: '12px 0',
  borderBottom: '1px solid #f0f0f0',
} as const;

/** The cart's lines with remove and clear; checkout comes with the order work. */
export default function CartDrawer({
  items,
  onClose,
}: {
  items: readonly CartItem[];
  onClose: () => void;
}) {
  const dialogFocus = useDialogFocus();
  return (
    <Drawer {...dialogFocus} title="Cart" open onClose={onClose}>
      {items.length === 0 ? (
        <p>The cart is empty.</p>
      ) : (
        <>
          <ul aria-label="Cart lines" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {items.map((item) => (
              <li key={`${item.type}:${item.id}`} style={lineStyle}>
                <span>
                  <strong>
                    {item.type} {item.id}
                  </strong>
                  <br />
                  Quantity {item.quantity}
                  {item.variant_id != null && ` · variant ${item.variant_id}`}
                </span>
                <Button
                  size="small"
                  onClick={() => cart.remove(item.id, item.type)}
                  aria-label={`Remove ${item.type} ${item.id}`}
                >
                  Remove
                </Button>
              </li>
            ))}
          </ul>
          <Button danger block onClick={() => cart.clear()} style={{ marginTop: 16 }}>
            Clear cart
          </Button>
          <p style={{ marginTop: 16, color: 'rgba(0, 0, 0, 0.55)' }}>
            Checkout is not built yet; it comes with the order work.
          </p>
        </>
      )}
    </Drawer>
  );
}
