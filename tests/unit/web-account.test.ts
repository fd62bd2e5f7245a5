import { describe, expect, it } from 'vitest';
import { cardActions, cardState, cardStateLabel, withdrawnOrder } from '../../web/src/storefront/account/card-state';

describe('a card\'s state on My orders', () => {
  it('is Scheduled until sent, Sent until opened, then Opened with its date', () => {
    expect(cardState({ deliveredAt: null, openedAt: null })).toEqual({ kind: 'scheduled' });
    expect(cardStateLabel(cardState({ deliveredAt: null }))).toBe('Scheduled');
    expect(cardStateLabel(cardState({ deliveredAt: '2026-12-24T05:00:00.000Z', openedAt: null }))).toBe('Sent');
    // A card refunded on its own (a partial refund) is withdrawn, or not sent, whatever its order says.
    expect(cardStateLabel(cardState({ deliveredAt: '2026-12-24T05:00:00.000Z', openedAt: '2026-12-24T14:07:00.000Z', refundedAt: '2026-12-25T10:00:00.000Z' }, 'PARTIALLY_REFUNDED'))).toBe('Withdrawn');
    expect(cardStateLabel(cardState({ deliveredAt: null, refundedAt: '2026-12-25T10:00:00.000Z' }, 'PARTIALLY_REFUNDED'))).toBe('Not sent');
    expect(withdrawnOrder('PARTIALLY_REFUNDED')).toMatchObject({ label: 'Partly refunded' });
    const opened = cardState({ deliveredAt: '2026-12-24T05:00:00.000Z', openedAt: '2026-12-24T14:07:00.000Z' });
    expect(opened).toEqual({ kind: 'opened', at: '2026-12-24T14:07:00.000Z' });
    expect(cardStateLabel(opened)).toMatch(/^Opened .*2026/);
  });

  it('says Withdrawn or Not sent on a refunded or cancelled order, which names its state', () => {
    const sent = { deliveredAt: '2026-12-24T05:00:00.000Z', openedAt: '2026-12-24T14:07:00.000Z' };
    const scheduled = { deliveredAt: null, openedAt: null };
    for (const status of ['REFUNDED', 'CANCELLED'] as const) {
      expect(cardStateLabel(cardState(sent, status))).toBe('Withdrawn');
      expect(cardStateLabel(cardState(scheduled, status))).toBe('Not sent');
    }
    expect(withdrawnOrder('REFUNDED')).toMatchObject({ label: 'Refunded' });
    expect(withdrawnOrder('CANCELLED')).toMatchObject({ label: 'Cancelled' });
    for (const status of ['PAID', 'DELIVERED'] as const) {
      expect(withdrawnOrder(status)).toBeNull();
      expect(cardState(sent, status)).toEqual({ kind: 'opened', at: sent.openedAt });
    }
  });

  it('offers "Change date" on a scheduled card of a live order, and "Resend" on a sent one while resends are left', () => {
    const sent = { deliveredAt: '2026-12-24T05:00:00.000Z', openedAt: null };
    const scheduled = { deliveredAt: null, openedAt: null };
    expect(cardActions(cardState(scheduled, 'PAID'), 3)).toEqual({ changeDate: true, resend: false });
    expect(cardActions(cardState(sent, 'PAID'), 3)).toEqual({ changeDate: false, resend: true });
    expect(cardActions(cardState({ ...sent, openedAt: '2026-12-25T05:00:00.000Z' }, 'DELIVERED'), 1)).toEqual({ changeDate: false, resend: true });
    // After the third resend: nothing to press that would only fail.
    expect(cardActions(cardState(sent, 'DELIVERED'), 0)).toEqual({ changeDate: false, resend: false });
    for (const status of ['REFUNDED', 'CANCELLED'] as const) {
      expect(cardActions(cardState(scheduled, status), 3)).toEqual({ changeDate: false, resend: false });
      expect(cardActions(cardState(sent, status), 3)).toEqual({ changeDate: false, resend: false });
    }
  });
});

describe('a card kept back because its recipient said no', () => {
  it('says so in the shop’s words, offers nothing, and yields to a refund', () => {
    const reason = 'Not delivered: the recipient unsubscribed';
    const state = cardState({ deliveredAt: null, openedAt: null, notDeliveredReason: reason }, 'PAID');
    expect(state).toEqual({ kind: 'not-delivered', reason });
    expect(cardStateLabel(state)).toBe(reason);
    expect(cardActions(state, 3)).toEqual({ changeDate: false, resend: false });
    expect(cardStateLabel(cardState({ deliveredAt: null, notDeliveredReason: reason }, 'REFUNDED'))).toBe('Not sent');
    // A card that did go out stays Sent (a later e-mail held back does not undo it).
    expect(cardStateLabel(cardState({ deliveredAt: '2026-12-24T05:00:00.000Z', notDeliveredReason: reason }, 'PAID'))).toBe('Sent');
  });
});
