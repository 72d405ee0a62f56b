import {
  changePasswordEndpoint,
  PASSWORD_CHANGED_MESSAGE,
  profileEndpoint,
} from '@inventory/contract';
import { Answer } from '../../http/endpoint.js';
import type { AppModule } from '../module.js';
import { changePassword, profileOf } from './profile.service.js';

export const profileModule: AppModule = {
  name: 'profile',
  register({ endpoint, db }) {
    endpoint(profileEndpoint, async ({ principal }) => profileOf(principal));
    endpoint(changePasswordEndpoint, async ({ principal, body, meta }) => {
      await changePassword(db, principal, body, meta);
      return new Answer(null, PASSWORD_CHANGED_MESSAGE);
    });
  },
};
