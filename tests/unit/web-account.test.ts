import { describe, expect, it } from 'vitest';
import { cardState, cardStateLabel } from '../../web/src/storefront/account/card-state';

describe('a card\'s state on My orders', () => {
  it('is Scheduled until sent, Sent until opened, then Opened with its date', () => {
    expect(cardState({ deliveredAt: null, openedAt: null })).toEqual({ kind: 'scheduled' });
    expect(cardStateLabel(cardState({ deliveredAt: null }))).toBe('Scheduled');
    expect(cardStateLabel(cardState({ deliveredAt: '2026-12-24T05:00:00.000Z', openedAt: null }))).toBe('Sent');
    // A refunded card is withdrawn, whatever happened to it before.
    expect(cardStateLabel(cardState({ deliveredAt: '2026-12-24T05:00:00.000Z', openedAt: '2026-12-24T14:07:00.000Z', refundedAt: '2026-12-25T10:00:00.000Z' }))).toBe('Refunded');
    const opened = cardState({ deliveredAt: '2026-12-24T05:00:00.000Z', openedAt: '2026-12-24T14:07:00.000Z' });
    expect(opened).toEqual({ kind: 'opened', at: '2026-12-24T14:07:00.000Z' });
    expect(cardStateLabel(opened)).toMatch(/^Opened .*2026/);
  });
});
