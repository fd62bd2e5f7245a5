import type { OrderStatus } from '../../apollo/generated/graphql';
import { pageIntl } from '../../i18n/page-intl';
import { longDateTime } from '../common/dates';

/**
 * What "My orders" says of a card: Scheduled (not sent yet), Sent, or Opened {date}; on an order that
 * was refunded or cancelled, or for a card refunded on its own (a partial refund), Withdrawn (it had
 * gone out) or Not sent; for a card kept back because its recipient said no, the reason ("Not
 * delivered: the recipient unsubscribed").
 */
export type CardState = { kind: 'scheduled' } | { kind: 'sent' } | { kind: 'opened'; at: string } | { kind: 'withdrawn' } | { kind: 'not-sent' } | { kind: 'not-delivered'; reason: string };

/** An order that no longer goes ahead: its cards are not sent, and can be neither moved nor sent again. */
export const isWithdrawn = (status: OrderStatus | null | undefined) => status === 'REFUNDED' || status === 'CANCELLED';

export function cardState(card: { deliveredAt?: string | null; openedAt?: string | null; refundedAt?: string | null; notDeliveredReason?: string | null }, orderStatus?: OrderStatus | null): CardState {
  if (isWithdrawn(orderStatus) || card.refundedAt) return card.deliveredAt ? { kind: 'withdrawn' } : { kind: 'not-sent' };
  // Kept back on purpose (its recipient unsubscribed): the shop's own words say why.
  if (card.notDeliveredReason && !card.deliveredAt) return { kind: 'not-delivered', reason: card.notDeliveredReason };
  if (card.openedAt) return { kind: 'opened', at: card.openedAt };
  if (card.deliveredAt) return { kind: 'sent' };
  return { kind: 'scheduled' };
}

/** What the shopper can do with a card in its state: move a scheduled one, send a sent one again while resends are left. */
export function cardActions(state: CardState, resendsLeft: number | null | undefined): { changeDate: boolean; resend: boolean } {
  const sent = state.kind === 'sent' || state.kind === 'opened';
  return { changeDate: state.kind === 'scheduled', resend: sent && (resendsLeft ?? 0) > 0 };
}

/** The state of an order that no longer goes ahead, with what it means for its cards; null for a live one. */
export function withdrawnOrder(status: OrderStatus | null | undefined): { label: string; note: string } | null {
  const intl = pageIntl();
  if (status === 'PARTIALLY_REFUNDED') return { label: intl.formatMessage({ id: 'account.order.partlyRefunded', defaultMessage: 'Partly refunded' }), note: intl.formatMessage({ id: 'account.order.partlyRefunded.note', defaultMessage: 'Some cards of this order were refunded: those that had not gone out are not sent, and those that had show they were withdrawn.' }) };
  if (status === 'REFUNDED') return { label: intl.formatMessage({ id: 'account.order.refunded', defaultMessage: 'Refunded' }), note: intl.formatMessage({ id: 'account.order.refunded.note', defaultMessage: 'This order was refunded: its cards that had not gone out are not sent, and those that had show they were withdrawn.' }) };
  if (status === 'CANCELLED') return { label: intl.formatMessage({ id: 'account.order.cancelled', defaultMessage: 'Cancelled' }), note: intl.formatMessage({ id: 'account.order.cancelled.note', defaultMessage: 'This order was cancelled before it was paid: its cards are not sent.' }) };
  return null;
}

export { longDate, longDateTime } from '../common/dates';

export function cardStateLabel(state: CardState): string {
  const intl = pageIntl();
  switch (state.kind) {
    case 'opened':
      return intl.formatMessage({ id: 'account.card.opened', defaultMessage: 'Opened {at}' }, { at: longDateTime(state.at) });
    case 'sent':
      return intl.formatMessage({ id: 'account.card.sent', defaultMessage: 'Sent' });
    case 'withdrawn':
      return intl.formatMessage({ id: 'account.card.withdrawn', defaultMessage: 'Withdrawn' });
    case 'not-sent':
      return intl.formatMessage({ id: 'account.card.notSent', defaultMessage: 'Not sent' });
    case 'not-delivered':
      return state.reason;
    default:
      return intl.formatMessage({ id: 'account.card.scheduled', defaultMessage: 'Scheduled' });
  }
}
