import { defineMessages } from 'react-intl';
import { errorCode, errorMessage } from '../../apollo/errors';
import { pageIntl } from '../../i18n/page-intl';

/** A refused subscribe, said in a callout. */
export interface JoinFailure {
  title: string;
  message: string;
}

/** The titles and texts of a refused or unfinished payment (StripeMembershipJoin says some of them too). */
export const JOIN_FAILURE_TEXTS = defineMessages({
  declined: { id: 'membership.failure.declined', defaultMessage: 'Payment declined' },
  notThrough: { id: 'membership.failure.notThrough', defaultMessage: 'The payment did not go through' },
  retry: { id: 'membership.failure.retry', defaultMessage: 'Please try again.' },
  planGone: { id: 'membership.failure.planGone', defaultMessage: 'This plan is no longer offered' },
  choosePlan: { id: 'membership.failure.choosePlan', defaultMessage: 'Choose one of the plans offered now.' },
  member: { id: 'membership.failure.member', defaultMessage: 'You are a member already' },
});

/**
 * What the shop's refusal of a subscribe says to the shopper (a card field's problem is the card
 * form's own), and what the page should look at again: the plans (one is no longer offered) or the
 * shopper's membership (they are a member already).
 */
export function joinFailure(error: unknown): JoinFailure & { reload?: 'plans' | 'membership' } {
  const intl = pageIntl();
  const message = errorMessage(error, intl.formatMessage(JOIN_FAILURE_TEXTS.retry));
  switch (errorCode(error)) {
    case 'PAYMENT_DECLINED':
      return { title: intl.formatMessage(JOIN_FAILURE_TEXTS.declined), message };
    case 'NOT_FOUND':
      return { title: intl.formatMessage(JOIN_FAILURE_TEXTS.planGone), message: intl.formatMessage(JOIN_FAILURE_TEXTS.choosePlan), reload: 'plans' };
    case 'CONFLICT':
      return { title: intl.formatMessage(JOIN_FAILURE_TEXTS.member), message, reload: 'membership' };
    default:
      return { title: intl.formatMessage(JOIN_FAILURE_TEXTS.notThrough), message };
  }
}
