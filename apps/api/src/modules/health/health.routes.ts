import { healthEndpoint } from '@inventory/contract';
import { ApiError } from '../../http/errors.js';
import type { AppModule } from '../module.js';

export const healthModule: AppModule = {
  name: 'health',
  register({ endpoint, db, config }) {
    endpoint(healthEndpoint, async () => {
      await db.query('SELECT 1').catch(() => {
        throw new ApiError(503, 'The database does not answer.');
      });
      return { status: 'ok' as const, database: db.kind, version: config.version };
    });
  },
};
