import { errorCode, errorMessage } from '../../apollo/errors';

/** A refused subscribe, said in a callout. */
export interface JoinFailure {
  title: string;
  message: string;
}

/**
 * What the shop's refusal of a subscribe says to the shopper (a card field's problem is the card
 * form's own), and what the page should look at again: the plans (one is no longer offered) or the
 * shopper's membership (they are a member already).
 */
export function joinFailure(error: unknown): JoinFailure & { reload?: 'plans' | 'membership' } {
  const message = errorMessage(error, 'Please try again.');
  switch (errorCode(error)) {
    case 'PAYMENT_DECLINED':
      return { title: 'Payment declined', message };
    case 'NOT_FOUND':
      return { title: 'This plan is no longer offered', message: 'Choose one of the plans offered now.', reload: 'plans' };
    case 'CONFLICT':
      return { title: 'You are a member already', message, reload: 'membership' };
    default:
      return { title: 'The payment did not go through', message };
  }
}
