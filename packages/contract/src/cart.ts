import { z } from 'zod';

/** A cart item as kept in browser storage under 'cart' (spec section 3). */
export const cartItemSchema = z.object({
  id: z.union([z.number(), z.string()]),
  type: z.string().min(1),
  quantity: z.number().int().positive(),
  variant_id: z.union([z.number(), z.string(), z.null()]).optional(),
});
export type CartItem = z.infer<typeof cartItemSchema>;

export const cartSchema = z.array(cartItemSchema);
