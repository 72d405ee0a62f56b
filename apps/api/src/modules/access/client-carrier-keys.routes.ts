import {
  clientCarrierOptionsEndpoint,
  createClientCarrierKeyEndpoint,
  revokeClientCarrierKeyEndpoint,
} from '@inventory/contract';
import { Answer } from '../../http/endpoint.js';
import { pickerOptions } from '../../toolkit/pickers.js';
import { registerList } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import {
  clientCarrierKeyStore,
  createClientCarrierKey,
  revokeClientCarrierKey,
} from './client-carrier-keys.service.js';

export const clientCarrierKeysModule: AppModule = {
  name: 'client-carrier-keys',
  register(context) {
    const { endpoint, db } = context;
    registerList(context, clientCarrierKeyStore);
    endpoint(createClientCarrierKeyEndpoint, async ({ principal, body, meta }) => {
      const created = await createClientCarrierKey(db, principal, body, meta);
      return new Answer(created, 'API key created: copy it now, it is not shown again.');
    });
    endpoint(revokeClientCarrierKeyEndpoint, async ({ principal, params, meta }) => {
      const revoked = await revokeClientCarrierKey(db, principal, params.id, meta);
      return new Answer(revoked, 'API key revoked.');
    });
    endpoint(clientCarrierOptionsEndpoint, ({ query }) =>
      pickerOptions(
        db,
        {
          from: 'vendors',
          id: 'id',
          label: 'name',
          where: "type = 'carrier-client' AND active AND ($1::text IS NULL OR name ILIKE $1)",
          order: 'lower(name)',
        },
        query,
      ),
    );
  },
};
