/** What the order area offers other areas and the shell. */
export { useShopCatalogue } from './api/web-orders.queries';
export { CartCheckout, ShopItems } from './components/cart-checkout';
export { OrderDrawer } from './components/order-drawer';
export { OrderStatusTag } from './components/order-status';
export { PaymentTag } from './components/payment-tag';
