/** What "My orders" says of a card: Scheduled (not sent yet), Sent, Opened {date}, or Refunded (withdrawn). */
export type CardState = { kind: 'scheduled' } | { kind: 'sent' } | { kind: 'opened'; at: string } | { kind: 'refunded' };

export function cardState(card: { deliveredAt?: string | null; openedAt?: string | null; refundedAt?: string | null }): CardState {
  if (card.refundedAt) return { kind: 'refunded' };
  if (card.openedAt) return { kind: 'opened', at: card.openedAt };
  if (card.deliveredAt) return { kind: 'sent' };
  return { kind: 'scheduled' };
}

export const longDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'long' });
export const longDateTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'long', timeStyle: 'short' });

export function cardStateLabel(state: CardState): string {
  if (state.kind === 'opened') return `Opened ${longDateTime(state.at)}`;
  if (state.kind === 'refunded') return 'Refunded';
  return state.kind === 'sent' ? 'Sent' : 'Scheduled';
}
