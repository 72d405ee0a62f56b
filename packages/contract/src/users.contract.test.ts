import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { createUserInputSchema, updateUserInputSchema } from './users.contract.js';

const emailOf = (email: unknown) => z.safeParse(updateUserInputSchema, { email });

describe("a user's email", () => {
  it.each(['pi@example.com', ' pi.rep+1@shop.example.co.uk '])('takes the address %j', (email) => {
    expect(emailOf(email)).toMatchObject({ success: true, data: { email: email.trim() } });
  });

  it.each(['', '  ', null, undefined])('takes %j for no email', (email) => {
    expect(emailOf(email).success).toBe(true);
  });

  it.each(['pi', 'pi@', 'pi@example', 'p i@example.com', 'pi@example.com, po@example.com'])(
    'refuses %j with a clear message',
    (email) => {
      const result = emailOf(email);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([
        'This is not an email address.',
      ]);
    },
  );

  it('checks the address of a new user too', () => {
    const result = z.safeParse(createUserInputSchema, {
      user_name: 'pi',
      name: 'Pi',
      type: 'staff',
      role_ids: [],
      email: 'not-an-address',
    });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['email'], message: 'This is not an email address.' }),
    ]);
  });
});
