import ShoppingCartOutlined from '@ant-design/icons/ShoppingCartOutlined';
import { Badge, Button } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { cartCount, useCartItems } from './cart-store';
import { counted } from '../../toolkit/format';

const CartDrawer = lazy(() => import('./cart-drawer'));

/** The header's cart badge; the cart's lines open in a drawer loaded on first use. */
export function CartButton() {
  const items = useCartItems();
  const [open, setOpen] = useState(false);
  const count = cartCount(items);
  return (
    <>
      <Badge count={count} size="small" offset={[-4, 4]}>
        <Button
          type="text"
          icon={<ShoppingCartOutlined />}
          aria-label={`Cart, ${counted(count, 'unit')}`}
          onClick={() => setOpen(true)}
        />
      </Badge>
      {open && (
        <Suspense fallback={null}>
          <CartDrawer items={items} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
