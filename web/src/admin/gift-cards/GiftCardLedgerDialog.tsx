import { Fragment } from 'react';
import { Link } from 'react-router-dom';
import { useQuery } from '@apollo/client/react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, Spinner, Tag } from '@blueprintjs/core';
import { orderNumber } from '@rules';
import { viewAddress } from '../shell/admin-views';
import { dateTime, money } from '../orders/order-format';
import { ENTRY_LABEL, SOURCE_LABEL, cardState, maskedCode, signedMoney } from './gift-card-format';
import { GiftCardQuery } from './gift-cards-operations';

/** An order named by its number, opening it in Orders. */
const OrderLink = ({ id }: { id: string }) => <Link to={viewAddress('orders', 'admin', { order: id })}>order {orderNumber(id)}</Link>;

/** Under an entry: the order it was for, the admin's reason and who made it ("order 1A2B3C4D", "Goodwill · by admin"). */
function EntryDetail({ orderId, reason, actor }: { orderId?: string | null; reason?: string | null; actor?: string | null }) {
  const parts = [orderId ? <OrderLink id={orderId} /> : null, reason, actor ? `by ${actor}` : null].filter(Boolean);
  if (!parts.length) return null;
  return (
    <div className="muted gift-card-entry-detail">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && ' · '}
          {part}
        </Fragment>
      ))}
    </div>
  );
}

/**
 * A gift card opened from its row (`?giftCard=12`): its facts and its ledger, every change of its
 * balance oldest first with who or what made it; Adjust and Void while it is active.
 */
export function GiftCardLedgerDialog({ id, onClose, onAdjust, onVoid }: { id: number | null; onClose: () => void; onAdjust: () => void; onVoid: () => void }) {
  const { data, error } = useQuery(GiftCardQuery, { variables: { id: id ?? 0 }, skip: id === null, fetchPolicy: 'cache-and-network' });
  const card = data?.giftCard.id === id ? data?.giftCard : undefined;
  const state = card && cardState(card);

  return (
    <Dialog isOpen={id !== null} onClose={onClose} title={card ? `Gift card ${maskedCode(card.last4)}` : 'Gift card'} icon="credit-card" className="gift-card-ledger-dialog">
      <DialogBody>
        {error && !card ? (
          <Callout intent="danger">This gift card could not be loaded.</Callout>
        ) : !card || !state ? (
          <Spinner />
        ) : (
          <>
            <dl className="gift-card-ledger-facts">
              <dt>Balance</dt>
              <dd className="gift-card-ledger-balance">
                {money(card.balance)}{' '}
                <Tag minimal intent={state.intent}>
                  {state.label}
                </Tag>
              </dd>
              <dt>Issued amount</dt>
              <dd>{money(card.initialAmount)}</dd>
              <dt>Source</dt>
              <dd>
                {SOURCE_LABEL[card.source]}
                {card.orderId && (
                  <>
                    {' '}
                    with <OrderLink id={card.orderId} />
                  </>
                )}
              </dd>
              {card.reason && (
                <>
                  <dt>Reason</dt>
                  <dd>{card.reason}</dd>
                </>
              )}
              {card.recipientEmail && (
                <>
                  <dt>Sent to</dt>
                  <dd>{card.recipientEmail}</dd>
                </>
              )}
              <dt>Expires</dt>
              <dd>{card.expiresAt ? dateTime(card.expiresAt) : 'Never'}</dd>
              <dt>Created</dt>
              <dd>{dateTime(card.createdAt)}</dd>
            </dl>
            <h3 className="gift-card-heading">Ledger</h3>
            <table className="bp6-html-table bp6-compact gift-card-ledger" aria-label="Ledger">
              <thead>
                <tr>
                  <th>When</th>
                  <th>What</th>
                  <th className="gift-card-number">Change</th>
                  <th className="gift-card-number">Balance</th>
                </tr>
              </thead>
              <tbody>
                {card.entries.map((entry, index) => (
                  // The ledger only grows, oldest first: a row's place is its identity.
                  <tr key={index} data-kind={entry.kind}>
                    <td className="gift-card-when">{dateTime(entry.createdAt)}</td>
                    <td className="gift-card-what">
                      {ENTRY_LABEL[entry.kind]}
                      <EntryDetail orderId={entry.orderId} reason={entry.reason} actor={entry.actor} />
                    </td>
                    <td className="gift-card-number gift-card-change">{signedMoney(entry.amount)}</td>
                    <td className="gift-card-number gift-card-after" data-label="Balance">
                      {money(entry.balanceAfter)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            {card?.status === 'ACTIVE' && (
              <>
                <Button icon="exchange" text="Adjust" onClick={onAdjust} />
                <Button icon="disable" intent="danger" text="Void" onClick={onVoid} />
              </>
            )}
            <Button text="Close" onClick={onClose} />
          </>
        }
      />
    </Dialog>
  );
}
