import { agentLoginEndpoint, loginEndpoint, logoutEndpoint } from '@inventory/contract';
import type { AppModule } from '../module.js';

export const sessionModule: AppModule = {
  name: 'session',
  register({ endpoint, sessions }) {
    endpoint(loginEndpoint, ({ body, meta }) => sessions.login(body, meta, { agentOnly: false }));
    endpoint(agentLoginEndpoint, ({ body, meta }) =>
      sessions.login(body, meta, { agentOnly: true }),
    );
    endpoint(logoutEndpoint, async ({ principal, meta }) => {
      await sessions.logout(principal, meta);
      return null;
    });
  },
};
