import type { ResourceStore } from '../../toolkit/resource.js';
import { registerResource } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import { colorStore, registerColorMerge } from './colors.store.js';

/** Every master-data resource: each gets the toolkit's endpoints. */
export const MASTER_DATA_STORES: readonly ResourceStore[] = [
  colorStore as unknown as ResourceStore,
];

export const masterDataModule: AppModule = {
  name: 'master-data',
  register(context) {
    for (const store of MASTER_DATA_STORES) registerResource(context, store);
    registerColorMerge(context);
  },
};
