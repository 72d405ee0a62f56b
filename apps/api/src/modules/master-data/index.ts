/** What other areas use of master data. */
export { compatibleModelColumns, compatibleWith } from './accessories.store.js';
export { MODEL_DISPLAY_NAME, modelDisplayNameOf } from './models.store.js';
export {
  findColors,
  findModels,
  matchOf,
  pickedOf,
  referencesOf,
  type Match,
} from './name-matching.js';
export { MODEL_PICKER, tacNumberStore } from './tac-numbers.store.js';
/** The active flag and stamps of a master-data row (substitution rules are kept the same way). */
export { stampColumns } from './stamps.js';
