import { defineMessages } from '@formatjs/intl';

/** What a member, or a shopper joining, reads when a membership refuses (in their language: see core/errors.ts). */
export const MEMBERSHIP_REFUSALS = defineMessages({
  paymentsOff: { id: 'error.membership.paymentsOff', defaultMessage: 'Memberships cannot be paid in this shop yet: its payment provider does not take them.' },
  providerGone: { id: 'error.membership.providerGone', defaultMessage: 'Your membership cannot be changed now: the shop no longer takes payments through its provider.' },
  startUnreachable: { id: 'error.membership.startUnreachable', defaultMessage: 'The membership could not be started: the payment service did not answer as expected. Nothing was charged; please try again in a moment.' },
  changeUnreachable: { id: 'error.membership.unreachable', defaultMessage: 'Your membership could not be changed: the payment service did not answer. Nothing changed; please try again in a moment.' },
  deleteUnreachable: { id: 'error.membership.deleteUnreachable', defaultMessage: 'Your account could not be deleted: your membership could not be cancelled at the payment service. Nothing changed; please try again in a moment.' },
  choosePlan: { id: 'error.membership.choosePlan', defaultMessage: 'Choose a plan.' },
  noPlan: { id: 'error.membership.noPlan', defaultMessage: 'Membership plan not found' },
  none: { id: 'error.membership.none', defaultMessage: 'Membership not found' },
  member: { id: 'error.membership.member', defaultMessage: 'You are a member already; your membership page shows it.' },
  giftLasts: { id: 'error.membership.giftLasts', defaultMessage: 'Your gift membership lasts until {until}: join a plan once it has ended to keep the benefits.' },
  giftEnds: { id: 'error.membership.giftEnds', defaultMessage: 'A membership given as a present ends by itself on {until}: there is nothing to cancel.' },
  giftNoRenew: { id: 'error.membership.giftNoRenew', defaultMessage: 'A membership given as a present does not renew: join a plan once it has ended to keep the benefits.' },
  cancelled: { id: 'error.membership.cancelled', defaultMessage: 'Your membership is cancelled already; it ends when the period paid for ends.' },
  notCancelled: { id: 'error.membership.notCancelled', defaultMessage: 'Your membership is not cancelled, so there is nothing to resume.' },
});
