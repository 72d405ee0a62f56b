import * as z from 'zod/mini';

/**
 * Figures kept rather than computed on each request (a dashboard flat with scale, UX.md
 * "Dashboards and reports"): the server reads them in the background and keeps them with the
 * moment they were read, which every answer carries so that the page says how old they are.
 */
export function snapshotSchema<F extends z.ZodMiniType>(figures: F) {
  return z.object({
    /** When the figures were read (ISO). */
    as_of: z.string(),
    /** The server's time when it answered, so that the age does not depend on the browser's clock. */
    read_at: z.string(),
    /** How old the figures may get before the server reads them again. */
    max_age_seconds: z.int(),
    /** How long reading them took, in milliseconds. */
    took_ms: z.int(),
    /** Who asked for them; null when the server's own refresher read them. */
    refreshed_by: z.nullable(z.string()),
    figures,
  });
}

/** The answer to "read the figures again now". */
export function snapshotRefreshSchema<F extends z.ZodMiniType>(figures: F) {
  return z.object({
    ...snapshotSchema(figures).shape,
    /**
     * False when another refresh (another person, or the server's refresher) finished while this
     * one waited for it: its figures are the answer, read once.
     */
    refreshed: z.boolean(),
  });
}
