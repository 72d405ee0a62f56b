import type { Queryable } from '../db/db.js';

/**
 * The business day `offsetDays` days from now (negative: ago), as the server counts days: in the
 * order settings' time zone. A test that takes today from `Date` is a day ahead from six in the
 * evening, Chicago time, until midnight UTC turns the business day over too.
 */
export const businessDay = async (db: Queryable, offsetDays = 0) =>
  (
    await db.query<{ day: string }>(
      'SELECT order_business_day(now() + make_interval(days => $1))::text AS day',
      [offsetDays],
    )
  )[0]!.day;
