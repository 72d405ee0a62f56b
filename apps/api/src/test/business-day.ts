import type { Queryable } from '../db/db.js';

/**
 * The business day `offsetDays` days from today (negative: ago), as the server counts days: in
 * the order settings' time zone, by the calendar. A test that takes today from `Date` is a day
 * ahead from six in the evening, Chicago time, until midnight UTC turns the business day over too;
 * one that steps back from now by 24 hours a day lands on the day before in the last hour of a
 * business day once a change of summer time lies between (session 21's CI run, at 23:20 CST).
 */
export const businessDay = async (db: Queryable, offsetDays = 0) =>
  (
    await db.query<{ day: string }>('SELECT (order_business_day(now()) + $1::int)::text AS day', [
      offsetDays,
    ])
  )[0]!.day;
