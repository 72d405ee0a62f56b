import ShoppingCartOutlined from '@ant-design/icons/ShoppingCartOutlined';
import { Badge, Button, Drawer, Empty, List, Typography } from 'antd';
import { useState } from 'react';
import { cart, cartCount, useCartItems } from './cart-store';

/** The header's cart badge with the cart's lines; checkout comes with the order work. */
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
          aria-label={`Cart, ${count} ${count === 1 ? 'unit' : 'units'}`}
          onClick={() => setOpen(true)}
        />
      </Badge>
      <Drawer title="Cart" open={open} onClose={() => setOpen(false)}>
        {items.length === 0 ? (
          <Empty description="The cart is empty." />
        ) : (
          <>
            <List
              dataSource={[...items]}
              rowKey={(item) => `${item.type}:${item.id}`}
              renderItem={(item) => (
                <List.Item
                  actions={[
                    <Button
                      key="remove"
                      size="small"
                      onClick={() => cart.remove(item.id, item.type)}
                      aria-label={`Remove ${item.type} ${item.id}`}
                    >
                      Remove
                    </Button>,
                  ]}
                >
                  <List.Item.Meta
                    title={`${item.type} ${item.id}`}
                    description={`Quantity ${item.quantity}${
                      item.variant_id != null ? ` · variant ${item.variant_id}` : ''
                    }`}
                  />
                </List.Item>
              )}
            />
            <Button danger block onClick={() => cart.clear()}>
              Clear cart
            </Button>
            <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>
              Checkout is not built yet; it comes with the order work.
            </Typography.Paragraph>
          </>
        )}
      </Drawer>
    </>
  );
}
