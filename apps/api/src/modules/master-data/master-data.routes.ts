import type { ResourceStore } from '../../toolkit/resource.js';
import { registerResource } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import { accessoryStore } from './accessories.store.js';
import { colorStore, registerColorMerge } from './colors.store.js';
import { deviceModelStore, registerDeviceModelMerge } from './models.store.js';
import { partStore } from './parts.store.js';
import { propertyStore } from './properties.store.js';
import { registerTagMerge, tagStore } from './tags.store.js';
import {
  registerTacLookup,
  registerTacModelOptions,
  registerUnknownTacs,
  tacNumberStore,
} from './tac-numbers.store.js';
import { vendorStore } from './vendors.store.js';

/** Every master-data resource: each gets the toolkit's endpoints. */
export const MASTER_DATA_STORES: readonly ResourceStore[] = [
  colorStore,
  deviceModelStore,
  tacNumberStore,
  accessoryStore,
  partStore,
  vendorStore,
  tagStore,
  propertyStore,
];

export const masterDataModule: AppModule = {
  name: 'master-data',
  register(context) {
    for (const store of MASTER_DATA_STORES) registerResource(context, store);
    registerColorMerge(context);
    registerDeviceModelMerge(context);
    registerTacLookup(context);
    registerTacModelOptions(context);
    registerTagMerge(context);
    registerUnknownTacs(context);
  },
};
