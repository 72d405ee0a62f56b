import type { CartItem, ShopItem, WebOrderPlaced } from '@inventory/contract';
import { Alert, Button, InputNumber, Result, Spin, Typography } from 'antd';
import { useState } from 'react';
import { fieldErrorsOf } from '../../../shell/api-errors';
import { cart, CART_ERROR } from '../../../shell/cart/cart-store';
import { notify } from '../../../shell/notify';
import { counted, dollars, when } from '../../../toolkit/format';
import { useCheckout, useShopCatalogue } from '../api/web-orders.queries';

const lineStyle = {
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: 8,
  padding: '12px 0',
  borderBottom: '1px solid #f0f0f0',
} as const;

/** A failed checkout as the spec's cart failure: an 'Error Message' notification. */
function checkoutError(error: unknown): string {
  const fields = fieldErrorsOf(error);
  const words = fields
    ? Object.values(fields)
        .map((messages) => messages[0])
        .join(' ')
    : error instanceof Error
      ? error.message
      : String(error);
  return `${CART_ERROR}: ${words}`;
}

/** The shop item a cart line stands for: same listing id and type. */
const shopItemOf = (items: readonly ShopItem[], line: CartItem) =>
  items.find((item) => item.listing_id === line.id && item.type === line.type);

function PlacedOrder({ order }: { order: WebOrderPlaced }) {
  return (
    <Result
      status="success"
      title={`Order ${order.number} placed`}
      subTitle={`Awaiting approval; its units are held until ${when(order.expires_at)}.`}
    >
      <ul aria-label="Order lines" style={{ margin: 0, paddingLeft: 18 }}>
        {order.lines.map((line) => (
          <li key={line.sku}>
            {line.qty} × {line.description} at {dollars(line.unit_price_cents)}
          </li>
        ))}
      </ul>
      <Typography.Paragraph strong style={{ marginTop: 8 }}>
        Total {dollars(order.total_cents)}
      </Typography.Paragraph>
    </Result>
  );
}

/** One thing of the shop with a quantity to add to the cart. */
function ShopLine({ item, inCart }: { item: ShopItem; inCart: number }) {
  const [quantity, setQuantity] = useState(1);
  const soldOut = item.available === 0;
  return (
    // Wraps on a phone: the quantity and Add go under the name rather than squeezing it.
    <li style={{ ...lineStyle, flexWrap: 'wrap' }}>
      <span>
        <strong>{item.name}</strong>
        <br />
        {item.sku} · {dollars(item.unit_price_cents)} ·{' '}
        {soldOut ? 'Sold out' : `${item.available} available`}
      </span>
      <span style={{ display: 'flex', gap: 8 }}>
        <InputNumber
          size="small"
          min={1}
          max={Math.max(item.available, 1)}
          value={quantity}
          onChange={(value) => setQuantity(value ?? 1)}
          disabled={soldOut}
          aria-label={`Quantity of ${item.sku}`}
          style={{ width: 72 }}
        />
        <Button
          size="small"
          disabled={soldOut}
          aria-label={`Add ${item.sku} to the cart`}
          onClick={() =>
            cart.add({
              id: item.listing_id,
              type: item.type,
              quantity: inCart + quantity,
              variant_id: item.variant_id,
            })
          }
        >
          Add
        </Button>
      </span>
    </li>
  );
}

/** The shop's items, each with a quantity to add to the cart (the cart's lines as `items`). */
export function ShopItems({
  catalogue,
  items,
  customerName,
}: {
  catalogue: readonly ShopItem[];
  items: readonly CartItem[];
  customerName: string;
}) {
  if (catalogue.length === 0) return <p>Nothing is on sale to {customerName} now.</p>;
  return (
    <ul aria-label="Shop items" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {catalogue.map((item) => (
        <ShopLine
          key={item.listing_id}
          item={item}
          inCart={
            items.find((line) => line.id === item.listing_id && line.type === item.type)
              ?.quantity ?? 0
          }
        />
      ))}
    </ul>
  );
}

/**
 * The cart's lines and checkout, and the shop to fill it from (DOMAIN.md 2.2 Cart, 7 Shop): a
 * retailer's portal user or an agent sees their shop, each cart line with its price, and checks
 * out into a pending web order; the cart is cleared and the order shown. Anyone else sees the
 * lines with what the cart is for. A page that shows the shop itself (the agent's) leaves it out
 * with `withShop={false}`.
 */
export function CartCheckout({
  items,
  withShop = true,
}: {
  items: readonly CartItem[];
  withShop?: boolean;
}) {
  const shop = useShopCatalogue();
  const checkout = useCheckout();
  const [placed, setPlaced] = useState<WebOrderPlaced | null>(null);
  const catalogue = shop.data?.items ?? [];
  const customer = shop.data?.customer ?? null;
  const unknown = items.filter((line) => !shopItemOf(catalogue, line));
  const total = items.reduce(
    (sum, line) => sum + line.quantity * (shopItemOf(catalogue, line)?.unit_price_cents ?? 0),
    0,
  );

  const placeOrder = () =>
    checkout.mutate(
      {
        items: items.map((line) => {
          const item = shopItemOf(catalogue, line)!;
          return {
            id: item.listing_id,
            type: item.type,
            quantity: line.quantity,
            variant_id: item.variant_id,
            unit_price_cents: item.unit_price_cents,
          };
        }),
      },
      {
        onSuccess: (order) => {
          cart.clear();
          setPlaced(order);
        },
        onError: (error) => notify.error(checkoutError(error)),
      },
    );

  return (
    <>
      {placed && <PlacedOrder order={placed} />}
      {items.length === 0 ? (
        !placed && <p>The cart is empty.</p>
      ) : (
        <>
          <ul aria-label="Cart lines" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {items.map((line) => {
              const item = shopItemOf(catalogue, line);
              return (
                <li key={`${line.type}:${line.id}`} style={lineStyle}>
                  <span>
                    <strong>{item ? item.name : `${line.type} ${line.id}`}</strong>
                    <br />
                    Quantity {line.quantity}
                    {item
                      ? ` × ${dollars(item.unit_price_cents)}`
                      : line.variant_id != null && ` · variant ${line.variant_id}`}
                  </span>
                  <Button
                    size="small"
                    onClick={() => cart.remove(line.id, line.type)}
                    aria-label={`Remove ${item ? item.sku : `${line.type} ${line.id}`}`}
                  >
                    Remove
                  </Button>
                </li>
              );
            })}
          </ul>
          {customer && (
            <>
              <Typography.Paragraph strong style={{ marginTop: 16 }}>
                Total {dollars(total)} for {customer.name}
              </Typography.Paragraph>
              {unknown.length > 0 && (
                <Typography.Paragraph type="danger">
                  Remove {counted(unknown.length, 'line')} not sold in your shop to check out.
                </Typography.Paragraph>
              )}
              <Button
                type="primary"
                block
                loading={checkout.isPending}
                disabled={unknown.length > 0}
                onClick={placeOrder}
              >
                Check out
              </Button>
            </>
          )}
          <Button danger block onClick={() => cart.clear()} style={{ marginTop: 16 }}>
            Clear cart
          </Button>
        </>
      )}
      {!withShop ? null : shop.isPending ? (
        <Spin style={{ display: 'block', marginTop: 16 }} />
      ) : shop.error ? (
        <Alert type="error" showIcon message={shop.error.message} style={{ marginTop: 16 }} />
      ) : customer ? (
        <section aria-labelledby="shop-title" style={{ marginTop: 24 }}>
          <Typography.Title level={2} id="shop-title" style={{ fontSize: 16 }}>
            Shop
          </Typography.Title>
          <ShopItems catalogue={catalogue} items={items} customerName={customer.name} />
        </section>
      ) : (
        <p style={{ marginTop: 16, color: 'rgba(0, 0, 0, 0.55)' }}>
          Ordering from the cart is open to retailers&apos; portal users and agents.
        </p>
      )}
    </>
  );
}
