/** What the order area offers other areas and the shell. */
export { CartCheckout } from './components/cart-checkout';
export { OrderDrawer } from './components/order-drawer';
export { OrderStatusTag } from './components/order-status';
