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
  type BoxLeft,
  type PutBack,
} from './box-membership.js';
