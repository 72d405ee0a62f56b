import { productEndpoints, variantEndpoints } from '@inventory/contract';
import { registerAttachments } from '../../toolkit/attachments.js';
import { pickerOptions } from '../../toolkit/pickers.js';
import { registerList } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import {
  addVariant,
  createProduct,
  PRODUCT_PICKERS,
  productAttachmentStore,
  productStore,
  propertyChoices,
  setProductStatus,
  setVariantStatus,
  updateProduct,
  updateVariant,
  variantStore,
} from './products.service.js';
import { variantAvailabilityOf } from './sellables.js';

/** `/pts-management/products`: products made from models, their variants, tags, values, images. */
export const ptsProductsModule: AppModule = {
  name: 'pts-products',
  register(context) {
    const { endpoint, db } = context;
    const P = productEndpoints;
    const V = variantEndpoints;

    registerList(context, productStore);
    endpoint(P.create, ({ principal, body, meta }) =>
      db.transaction((tx) => createProduct(tx, principal, meta, body)),
    );
    endpoint(P.update, ({ principal, params, body, meta }) =>
      db.transaction((tx) => updateProduct(tx, principal, meta, params.id, body)),
    );
    endpoint(P.archive, ({ principal, params, meta }) =>
      db.transaction((tx) => setProductStatus(tx, principal, meta, params.id, 'archived')),
    );
    endpoint(P.activate, ({ principal, params, meta }) =>
      db.transaction((tx) => setProductStatus(tx, principal, meta, params.id, 'active')),
    );
    endpoint(P.addVariant, ({ principal, params, body, meta }) =>
      db.transaction((tx) => addVariant(tx, principal, meta, params.id, body)),
    );
    endpoint(P.modelOptions, ({ query }) => pickerOptions(db, PRODUCT_PICKERS.models, query));
    endpoint(P.colorOptions, ({ query }) => pickerOptions(db, PRODUCT_PICKERS.colors, query));
    endpoint(P.tagOptions, ({ query }) => pickerOptions(db, PRODUCT_PICKERS.tags, query));
    endpoint(P.propertyChoices, () => propertyChoices(db));
    registerAttachments(context, productAttachmentStore);

    registerList(context, variantStore);
    endpoint(V.update, ({ principal, params, body, meta }) =>
      db.transaction((tx) => updateVariant(tx, principal, meta, params.id, body)),
    );
    endpoint(V.archive, ({ principal, params, meta }) =>
      db.transaction((tx) => setVariantStatus(tx, principal, meta, params.id, 'archived')),
    );
    endpoint(V.activate, ({ principal, params, meta }) =>
      db.transaction((tx) => setVariantStatus(tx, principal, meta, params.id, 'active')),
    );
    endpoint(V.availability, ({ body }) => variantAvailabilityOf(db, body.ids));
  },
};
