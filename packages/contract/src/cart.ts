import * as z from 'zod/mini';

/** A cart item as kept in browser storage under 'cart' (spec section 3). */
export const cartItemSchema = z.object({
  id: z.union([z.number(), z.string()]),
  type: z.string().check(z.minLength(1)),
  quantity: z.int().check(z.positive()),
  variant_id: z.optional(z.union([z.number(), z.string(), z.null()])),
});
export type CartItem = z.infer<typeof cartItemSchema>;

export const cartSchema = z.array(cartItemSchema);
