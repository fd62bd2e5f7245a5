import type { KeyboardEvent, MouseEvent } from 'react';
import { Button, Tag } from '@blueprintjs/core';
import type { GiftCardsTable_GiftCardFragment } from '../../apollo/generated/graphql';
import { dateTime, money } from '../orders/order-format';
import { SOURCE_LABEL, cardState, maskedCode } from './gift-card-format';

/** A row's own button: it acts on the card without opening its ledger as well. */
const alone = (action: () => void) => (event: MouseEvent) => {
  event.stopPropagation();
  action();
};

/** The cards of a page, newest first; a row opens the card's ledger, and an active card has Adjust and Void. */
export function GiftCardsTable({ cards, onOpen, onAdjust, onVoid }: { cards: GiftCardsTable_GiftCardFragment[]; onOpen: (id: number) => void; onAdjust: (id: number) => void; onVoid: (id: number) => void }) {
  const keyOpen = (id: number) => (event: KeyboardEvent) => {
    if (event.target !== event.currentTarget || (event.key !== 'Enter' && event.key !== ' ')) return;
    event.preventDefault();
    onOpen(id);
  };
  return (
    <div className="gift-cards-table-wrap">
      <table className="bp6-html-table bp6-interactive bp6-html-table-striped gift-cards-table" aria-label="Gift cards">
        <thead>
          <tr>
            <th>Code</th>
            <th className="gift-card-number">Balance</th>
            <th className="gift-card-number">Issued amount</th>
            <th>Status</th>
            <th>Source</th>
            <th>Reason</th>
            <th>Created</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {cards.map((card) => {
            const { label, intent } = cardState(card);
            return (
              <tr key={card.id} data-gift-card-id={card.id} tabIndex={0} onClick={() => onOpen(card.id)} onKeyDown={keyOpen(card.id)}>
                <td className="gift-card-code-cell">{maskedCode(card.last4)}</td>
                <td className="gift-card-number gift-card-balance-cell" data-label="Balance">
                  {money(card.balance)}
                </td>
                <td className="gift-card-number" data-label="Issued">
                  {money(card.initialAmount)}
                </td>
                <td className="gift-card-status-cell">
                  <Tag minimal intent={intent}>
                    {label}
                  </Tag>
                </td>
                <td data-label="Source">{SOURCE_LABEL[card.source]}</td>
                <td className="gift-card-reason" data-label="Reason">
                  {card.reason ?? (card.recipientEmail ? `For ${card.recipientEmail}` : '—')}
                </td>
                <td className="gift-card-created" data-label="Created">
                  {dateTime(card.createdAt)}
                </td>
                <td className="gift-card-actions">
                  {card.status === 'ACTIVE' && (
                    <>
                      <Button variant="minimal" icon="exchange" aria-label={`Adjust ${maskedCode(card.last4)}`} title="Adjust" onClick={alone(() => onAdjust(card.id))} />
                      <Button variant="minimal" icon="disable" intent="danger" aria-label={`Void ${maskedCode(card.last4)}`} title="Void" onClick={alone(() => onVoid(card.id))} />
                    </>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
