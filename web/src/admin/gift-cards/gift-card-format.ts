import type { Intent } from '@blueprintjs/core';
import type { GiftCardEntryKind, GiftCardSource, GiftCardStatus } from '../../apollo/generated/graphql';
import { money } from '../orders/order-format';

/** A card as the shop knows it: the last four characters of its code after four dots ("····7KQX"). */
export const maskedCode = (last4: string) => `····${last4}`;

/** A change of a balance with its sign: "+$10.00", "−$4.50". */
export const signedMoney = (amount: string) => `${Number(amount) < 0 ? '−' : '+'}${money(String(Math.abs(Number(amount))))}`;

/** Whether a card can still pay: "Active", "Used up" (active, nothing left) or "Voided". */
export function cardState(card: { status: GiftCardStatus; balance: string }): { label: string; intent: Intent } {
  if (card.status === 'VOIDED') return { label: 'Voided', intent: 'danger' };
  if (Number(card.balance) <= 0) return { label: 'Used up', intent: 'none' };
  return { label: 'Active', intent: 'success' };
}

export const SOURCE_LABEL: Record<GiftCardSource, string> = { ISSUED: 'Issued', PURCHASED: 'Bought' };

/** What each ledger entry says happened. */
export const ENTRY_LABEL: Record<GiftCardEntryKind, string> = {
  ISSUED: 'Issued',
  REDEEMED: 'Spent on an order',
  RELEASED: 'Given back (order not paid)',
  REFUNDED: 'Refunded to the card',
  ADJUSTED: 'Adjusted',
  VOIDED: 'Voided',
};

/**
 * An amount as typed into a form, as the server reads amounts: without a dollar sign, grouping
 * commas, spaces or a plus, and a typographic minus as a plain one ("−$5" → "-5").
 */
export const typedAmount = (text: string) => text.trim().replace(/[\s,$]/g, '').replace(/^\+/, '').replace(/^[−–]/, '-');
