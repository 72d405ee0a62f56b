/** What other areas use of counted stock: consuming parts on a repair, accessories on an order. */
export { adjustStock, consumeStock, type StockWriter } from './stock.service.js';
export { generateStock } from './generate-stock.js';
