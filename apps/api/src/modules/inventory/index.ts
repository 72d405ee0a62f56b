/** What other areas use of inventory boxes: the data generator, and a device's box (the registry). */
export {
  generateBoxHistory,
  generateInventory,
  type GenerateBoxHistoryOptions,
  type GenerateInventoryOptions,
} from './generate-inventory.js';
export {
  inventoryBoxCodeOf,
  inventoryBoxPlaceOf,
  putBackIntoInventoryBoxes,
  takeOutOfInventoryBoxes,
  type PutBack,
} from './box-membership.js';
/** A box's count as the contract shows it, over `inventory_box_counts c` (a count job's boxes). */
export { COUNT_JSON } from './box-count-json.js';
