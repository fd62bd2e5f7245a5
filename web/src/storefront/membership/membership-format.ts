import type { Intent } from '@blueprintjs/core';
import type { MembershipPeriod, MembershipStatus } from '../../apollo/generated/graphql';
import { MEMBERSHIP_GRACE_MS as GRACE_MS } from '@rules';
import { pageIntl } from '../../i18n/page-intl';
import { formatPrice } from '../common/price';
export { longDate } from '../common/dates';
import { longDate } from '../common/dates';

/** "$4.99 a month", "$39.00 a year". */
export const planPrice = (plan: { price: string; period: MembershipPeriod }) => pageIntl().formatMessage({ id: 'membership.plan.price', defaultMessage: '{period, select, YEAR {{price} a year} other {{price} a month}}' }, { price: formatPrice(plan.price), period: plan.period });

/** What a plan gives, in the shop's words: "E-cards included", "10 % off albums and collections". */
export function planBenefits(plan: { ecardsIncluded: boolean; percentOffOther: number }): string[] {
  const intl = pageIntl();
  return [plan.ecardsIncluded ? intl.formatMessage({ id: 'membership.plan.ecardsIncluded', defaultMessage: 'E-cards included' }) : null, plan.percentOffOther > 0 ? intl.formatMessage({ id: 'membership.plan.percentOff', defaultMessage: '{percent} % off albums and collections' }, { percent: plan.percentOffOther }) : null].filter(
    (benefit): benefit is string => benefit !== null,
  );
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
  const intl = pageIntl();
  const end = longDate(membership.currentPeriodEnd);
  const ended = () => longDate(membership.endedAt ?? membership.currentPeriodEnd);
  switch (membership.status) {
    case 'ACTIVE':
      if (membership.gift) return { label: intl.formatMessage({ id: 'membership.state.gift', defaultMessage: 'Gift' }), intent: 'primary', line: intl.formatMessage({ id: 'membership.state.gift.line', defaultMessage: 'A present: ends on {end}, and never renews or charges you' }, { end }), current: true };
      return membership.cancelAtPeriodEnd
        ? { label: intl.formatMessage({ id: 'membership.state.cancelled', defaultMessage: 'Cancelled' }), intent: 'warning', line: intl.formatMessage({ id: 'membership.state.cancelled.line', defaultMessage: 'Cancelled: ends on {end}' }, { end }), current: true }
        : { label: intl.formatMessage({ id: 'membership.state.active', defaultMessage: 'Active' }), intent: 'success', line: intl.formatMessage({ id: 'membership.state.active.line', defaultMessage: 'Renews on {end}' }, { end }), current: true };
    case 'PAST_DUE':
      return { label: intl.formatMessage({ id: 'membership.state.pastDue', defaultMessage: 'Past due' }), intent: 'danger', line: intl.formatMessage({ id: 'membership.state.pastDue.line', defaultMessage: 'Renewal declined: the benefits last until {until}' }, { until: longDate(graceEnd(membership)) }), current: true };
    case 'INCOMPLETE':
      return { label: intl.formatMessage({ id: 'membership.state.incomplete', defaultMessage: 'Payment pending' }), intent: 'primary', line: intl.formatMessage({ id: 'membership.state.incomplete.line', defaultMessage: 'Starts once its first payment is confirmed' }), current: false };
    case 'LAPSED':
      return { label: intl.formatMessage({ id: 'membership.state.lapsed', defaultMessage: 'Lapsed' }), intent: 'none', line: intl.formatMessage({ id: 'membership.state.lapsed.line', defaultMessage: 'Ended on {ended}: a renewal was not paid' }, { ended: ended() }), current: false };
    default:
      return { label: intl.formatMessage({ id: 'membership.state.ended', defaultMessage: 'Ended' }), intent: 'none', line: intl.formatMessage({ id: 'membership.state.ended.line', defaultMessage: 'Ended on {ended}' }, { ended: ended() }), current: false };
  }
}

/** Until when a membership whose renewal was declined keeps its benefits. */
export const graceEnd = (membership: { pastDueSince?: string | null; currentPeriodEnd: string }) => new Date(Date.parse(membership.pastDueSince ?? membership.currentPeriodEnd) + GRACE_MS).toISOString();
