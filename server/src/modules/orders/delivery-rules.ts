import { badInput } from '../../core/errors.js';
import { deliveryInstant as deliveryInstantOf } from '../../rules/schemas.js';

/** When a card chosen for a day (YYYY-MM-DD in `timeZone`) and an hour (HH:MM, 09:00 unless given) is due: see the shared delivery rule. */
export function deliveryInstant(value: unknown, timeZone: string, now: Date, time?: unknown): Date {
  const at = deliveryInstantOf(value, timeZone, now, time);
  if (at instanceof Date) return at;
  throw badInput(at.problem, at.field);
}
