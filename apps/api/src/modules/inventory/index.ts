/** What other areas (the data generator) use of inventory boxes. */
export { generateInventory, type GenerateInventoryOptions } from './generate-inventory.js';
