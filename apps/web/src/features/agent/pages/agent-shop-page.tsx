import { Alert, Button, Spin, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useCartItems } from '../../../shell/cart/cart-store';
import type { PageProps } from '../../../shell/page-types';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import { CartCheckout, ShopItems, useShopCatalogue } from '../../order';

const SECTION_TITLE = { fontSize: 18, marginTop: 20 } as const;

/**
 * The agent's shop (DOMAIN.md 7 Shop / cart, decision 0031): what the dealer the agent works for
 * sells on the web channel, with what is available and the price, added to the shell's cart and
 * checked out there into a web order that staff approve. An agent no coordinator has linked to a
 * dealer is told so: the server gives them no shop.
 */
export default function AgentShopPage({ entry }: PageProps) {
  const navigate = useNavigate();
  const shop = useShopCatalogue();
  const items = useCartItems();
  const customer = shop.data?.customer ?? null;
  return (
    <>
      <Typography.Title level={1} style={{ ...PAGE_TITLE_STYLE, marginBottom: 12 }}>
        {entry.label}
      </Typography.Title>
      {shop.isError ? (
        <Alert
          type="error"
          showIcon
          title="The shop could not be loaded."
          description={shop.error.message}
          action={<Button onClick={() => void shop.refetch()}>Try again</Button>}
        />
      ) : !shop.data ? (
        <Spin />
      ) : !customer ? (
        <Alert
          type="info"
          showIcon
          title="You are not linked to a dealer yet."
          description="Your coordinator must link you to the dealer you work for first; then you can order here."
        />
      ) : (
        <>
          <Typography.Paragraph>
            You order on the account of <strong>{customer.name}</strong>; staff approve each order
            before it ships.
          </Typography.Paragraph>
          <section aria-labelledby="catalogue-title">
            <Typography.Title level={2} id="catalogue-title" style={SECTION_TITLE}>
              Catalogue
            </Typography.Title>
            <ShopItems catalogue={shop.data.items} items={items} customerName={customer.name} />
          </section>
          <section aria-labelledby="cart-title">
            <Typography.Title level={2} id="cart-title" style={SECTION_TITLE}>
              Your cart
            </Typography.Title>
            <CartCheckout items={items} withShop={false} />
          </section>
          <Button block style={{ marginTop: 16 }} onClick={() => void navigate('/agent/history')}>
            Your orders
          </Button>
        </>
      )}
    </>
  );
}
