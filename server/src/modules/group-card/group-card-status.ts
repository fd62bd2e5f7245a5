import { defineMessages } from '@formatjs/intl';
import { MAX_SIGNATURES } from '../../rules/index.js';
import { conflict, said } from '../../core/errors.js';
import { SIGNING_CLOSED } from './sign-page.js';
import { OrderStatus, type OrderItem } from '../orders/index.js';
import type { GroupCard } from './group-card.entity.js';

/** Where a group card's signing stands. */
export enum SigningStatus {
  /** Taking signatures. */
  OPEN = 'open',
  /** Has all the signatures it can take; its signers may still change or remove theirs. */
  FULL = 'full',
  /** Past its deadline, or the card went out. */
  CLOSED = 'closed',
  /** Its order (or this card) was refunded. */
  WITHDRAWN = 'withdrawn',
}

/** An order whose cards exist for nobody yet (a checkout under way) or any more (cancelled). */
export const isUnplaced = (item: OrderItem): boolean => item.order.status === OrderStatus.PENDING || item.order.status === OrderStatus.CANCELLED;

export function signingStatus(card: GroupCard, item: OrderItem, signatures: number, now: Date): SigningStatus {
  if (item.refundedAt || item.order.status === OrderStatus.REFUNDED || item.order.status === OrderStatus.CANCELLED) return SigningStatus.WITHDRAWN;
  if (item.deliveredAt || now.getTime() >= card.collectUntil.getTime()) return SigningStatus.CLOSED;
  return signatures >= MAX_SIGNATURES ? SigningStatus.FULL : SigningStatus.OPEN;
}

/** What a signer reads when a signature cannot be taken, found or changed (in their language: see core/errors.ts). */
export const SIGNING_REFUSALS = defineMessages({
  signedAlready: { id: 'error.signing.signedAlready', defaultMessage: 'This signature is already on the card.' },
  noCard: { id: 'error.signing.noCard', defaultMessage: 'Group card not found' },
  noSignature: { id: 'error.signing.noSignature', defaultMessage: 'Signature not found' },
  otherBrowser: { id: 'error.signing.otherBrowser', defaultMessage: 'This signature can only be changed from the browser that signed it.' },
});

/** The CONFLICT of a card that cannot take this change. */
export function closedConflict(status: SigningStatus) {
  if (status === SigningStatus.WITHDRAWN) return conflict(SIGNING_CLOSED.withdrawn);
  if (status === SigningStatus.FULL) return conflict(said(SIGNING_CLOSED.full, { max: MAX_SIGNATURES }));
  return conflict(SIGNING_CLOSED.closed);
}
