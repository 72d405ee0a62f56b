import { test } from '@playwright/test';
import { apiAs } from './api';
import { LANES, laneURL } from './lanes';
import { ADMIN_PASSWORD } from './support';

/**
 * The first start of every lane's server but the first, whose first start is the browser journey
 * of first-login.spec.ts: the first administrator chooses the password the specs sign in with.
 */
test('every other lane’s first administrator has chosen a password', async ({ playwright }) => {
  for (let lane = 1; lane < LANES; lane += 1) {
    const request = await playwright.request.newContext({ baseURL: laneURL(lane) });
    const admin = await apiAs(request, 'admin', 'admin');
    await admin.post('/profile/password', {
      new_password: ADMIN_PASSWORD,
      new_password_confirm: ADMIN_PASSWORD,
    });
    await request.dispose();
  }
});
