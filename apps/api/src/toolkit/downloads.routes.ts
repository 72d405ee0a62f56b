import { downloadEndpoint } from '@inventory/contract';
import { FileAnswer } from '../http/endpoint.js';
import type { AppModule } from '../modules/module.js';

/** The one endpoint every download link points at. */
export const downloadsModule: AppModule = {
  name: 'downloads',
  register({ endpoint, downloads }) {
    endpoint(
      downloadEndpoint,
      async ({ params }) => new FileAnswer(await downloads.redeem(params.token)),
    );
  },
};
