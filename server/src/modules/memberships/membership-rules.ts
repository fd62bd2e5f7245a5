import { badInput } from '../../core/errors.js';
import { singleLine } from '../../core/input.js';
import { fromCents, toCents } from '../../core/money.js';
import { MembershipPeriod } from './membership.entity.js';

/** A plan as an admin writes it (GraphQL and REST alike). */
export interface PlanInput {
  name: string;
  price: string;
  period: MembershipPeriod;
  ecardsIncluded: boolean;
  percentOffOther: number;
  active: boolean;
}

export { MEMBERSHIP_GRACE_MS as GRACE_MS, MEMBERSHIP_REMINDER_MS as REMINDER_MS } from '../../rules/index.js';

/** Checks a plan: a name, a price of 0.01 to 10,000, a period, and a percentage of 0 to 90. */
export function cleanPlanInput(raw: Record<string, unknown>): PlanInput {
  const name = singleLine(raw.name, 'name', 'The name', 80);
  const priceText = typeof raw.price === 'number' && Number.isFinite(raw.price) ? String(raw.price) : typeof raw.price === 'string' ? raw.price.trim() : '';
  if (!/^\d{1,5}(\.\d{1,2})?$/.test(priceText) || toCents(priceText) <= 0 || toCents(priceText) > 1_000_000) throw badInput('The price is an amount from 0.01 to 10000.', 'price');
  const period = typeof raw.period === 'string' ? raw.period.toLowerCase() : '';
  if (period !== MembershipPeriod.MONTH && period !== MembershipPeriod.YEAR) throw badInput('The period is "month" or "year".', 'period');
  const percent = raw.percentOffOther ?? 0;
  if (typeof percent !== 'number' || !Number.isInteger(percent) || percent < 0 || percent > 90) throw badInput('The percentage off albums and collections is a whole number from 0 to 90.', 'percentOffOther');
  if (raw.ecardsIncluded !== undefined && typeof raw.ecardsIncluded !== 'boolean') throw badInput('Say whether e-cards are included (true or false).', 'ecardsIncluded');
  if (raw.active !== undefined && typeof raw.active !== 'boolean') throw badInput('Say whether the plan is offered (true or false).', 'active');
  return { name, price: fromCents(toCents(priceText)), period: period as MembershipPeriod, ecardsIncluded: raw.ecardsIncluded !== false, percentOffOther: percent, active: raw.active !== false };
}

/**
 * The end of a period that starts at `start`: a calendar month or year later (the day clamped to the
 * month's last), or `testSeconds` later when the shop shortens periods for tests.
 */
export function periodEnd(start: Date, period: MembershipPeriod, testSeconds: number | null): Date {
  if (testSeconds) return new Date(start.getTime() + testSeconds * 1000);
  const months = period === MembershipPeriod.YEAR ? 12 : 1;
  const end = new Date(start);
  const day = end.getUTCDate();
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + months);
  const last = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, last));
  return end;
}
