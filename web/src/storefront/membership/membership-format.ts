import type { Intent } from '@blueprintjs/core';
import type { MembershipPeriod, MembershipStatus } from '../../apollo/generated/graphql';
import { MEMBERSHIP_GRACE_MS as GRACE_MS } from '@rules';
import { formatPrice } from '../common/price';


const PERIOD: Record<MembershipPeriod, string> = { MONTH: 'month', YEAR: 'year' };

export { longDate } from '../common/dates';
import { longDate } from '../common/dates';

/** "$4.99 a month", "$39.00 a year". */
export const planPrice = (plan: { price: string; period: MembershipPeriod }) => `${formatPrice(plan.price)} a ${PERIOD[plan.period]}`;

/** What a plan gives, in the shop's words: "E-cards included", "10 % off albums and collections". */
export function planBenefits(plan: { ecardsIncluded: boolean; percentOffOther: number }): string[] {
  return [plan.ecardsIncluded ? 'E-cards included' : null, plan.percentOffOther > 0 ? `${plan.percentOffOther} % off albums and collections` : null].filter((benefit): benefit is string => benefit !== null);
}

export interface MembershipFacts {
  status: MembershipStatus;
  currentPeriodEnd: string;
  cancelAtPeriodEnd: boolean;
  /** Given as a present: it ends with its period and never renews. */
  gift?: boolean;
  pastDueSince?: string | null;
  endedAt?: string | null;
}

/**
 * Where a membership stands, in words: its tag, the line that says what happens next, and whether it
 * gives its benefits (`current`: active, cancelled to the end of its period, or past due within its
 * grace period; not one whose first payment Stripe has not confirmed yet).
 */
export function membershipState(membership: MembershipFacts): { label: string; intent: Intent; line: string; current: boolean } {
  const end = longDate(membership.currentPeriodEnd);
  switch (membership.status) {
    case 'ACTIVE':
      if (membership.gift) return { label: 'Gift', intent: 'primary', line: `A present: ends on ${end}, and never renews or charges you`, current: true };
      return membership.cancelAtPeriodEnd ? { label: 'Cancelled', intent: 'warning', line: `Cancelled: ends on ${end}`, current: true } : { label: 'Active', intent: 'success', line: `Renews on ${end}`, current: true };
    case 'PAST_DUE':
      return { label: 'Past due', intent: 'danger', line: `Renewal declined: the benefits last until ${longDate(graceEnd(membership))}`, current: true };
    case 'INCOMPLETE':
      return { label: 'Payment pending', intent: 'primary', line: 'Starts once its first payment is confirmed', current: false };
    case 'LAPSED':
      return { label: 'Lapsed', intent: 'none', line: `Ended on ${longDate(membership.endedAt ?? membership.currentPeriodEnd)}: a renewal was not paid`, current: false };
    default:
      return { label: 'Ended', intent: 'none', line: `Ended on ${longDate(membership.endedAt ?? membership.currentPeriodEnd)}`, current: false };
  }
}

/** Until when a membership whose renewal was declined keeps its benefits. */
export const graceEnd = (membership: { pastDueSince?: string | null; currentPeriodEnd: string }) => new Date(Date.parse(membership.pastDueSince ?? membership.currentPeriodEnd) + GRACE_MS).toISOString();
