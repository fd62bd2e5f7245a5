import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, Spinner, Tag } from '@blueprintjs/core';
import { orderNumber } from '@rules';
import { ConfirmAlert } from '../../common/ConfirmAlert';
import { reportError } from '../../common/report-error';
import { snackbar } from '../../common/toaster';
import { STATUS_INTENT, dateTime, money, statusLabel } from './order-format';
import { AdminOrderQuery, ResendCardEmailMutation } from './orders-operations';
import { OrderEmails } from './OrderEmails';
import { RefundButton } from './RefundButton';
import { OrderNotes } from './OrderNotes';
import { maskedCode } from '../gift-cards/gift-card-format';
import { viewAddress } from '../shell/admin-views';
import { useConsoleRole } from '../shell/console-role';

/** 'Order Details': the order, its items, and for each e-card its link, delivery and first opening. */
export function OrderDetailsDialog({ orderId, onClose }: { orderId: string | null; onClose: () => void }) {
  const { data, error } = useQuery(AdminOrderQuery, { variables: { id: orderId ?? '' }, skip: !orderId, fetchPolicy: 'cache-and-network' });
  const [resend] = useMutation(ResendCardEmailMutation);
  const [resending, setResending] = useState<{ id: number; email: string } | null>(null);
  const order = data?.order.id === orderId ? data?.order : undefined;
  const paidByGiftCard = order !== undefined && Number(order.giftCardAmount) > 0;
  // Admins find the card in Gift cards (staff do not see that view).
  const admin = useConsoleRole() === 'admin';

  const confirmResend = async () => {
    if (!resending) return;
    const target = resending;
    setResending(null);
    try {
      await resend({ variables: { itemId: target.id } });
      void snackbar(`E-mail to ${target.email} queued`);
    } catch (failure) {
      reportError('resending e-mail', 'Failed to resend e-mail', failure);
    }
  };

  return (
    <Dialog isOpen={orderId !== null} onClose={onClose} title="Order Details" icon="shopping-cart" className="order-details-dialog">
      <DialogBody>
        {error && !order ? (
          <Callout intent="danger">This order could not be loaded.</Callout>
        ) : !order ? (
          <Spinner />
        ) : (
          <>
            <dl className="order-details-facts">
              <dt>Order ID</dt>
              <dd className="orders-id">{order.id}</dd>
              <dt>Order number</dt>
              <dd title="As the shopper sees it: on the confirmation page, in My orders and in every e-mail">{orderNumber(order.id)}</dd>
              <dt>Customer</dt>
              <dd>{order.purchaserEmail || <span className="muted">Erased: the purchaser deleted their account</span>}</dd>
              <dt>Status</dt>
              <dd>
                <Tag minimal intent={STATUS_INTENT[order.status]}>
                  {statusLabel(order.status)}
                </Tag>
              </dd>
              <dt>Total</dt>
              <dd>
                {money(order.total)}
                {order.cardLast4 && !paidByGiftCard ? ` · card ending ${order.cardLast4}` : ''}
                {order.discountCode ? ` · ${money(order.discountAmount)} off with ${order.discountCode}` : order.discountName ? ` · ${money(order.discountAmount)} off: ${order.discountName} (automatic)` : ''}
              </dd>
              {paidByGiftCard && (
                <>
                  <dt>Gift card</dt>
                  <dd>
                    {!order.giftCardLast4 ? 'A gift card' : admin ? <Link to={viewAddress('gift-cards', 'admin', { search: order.giftCardLast4 })}>{maskedCode(order.giftCardLast4)}</Link> : maskedCode(order.giftCardLast4)} −{money(order.giftCardAmount)}
                  </dd>
                  <dt>Paid by card</dt>
                  <dd>
                    {money(order.chargedAmount)}
                    {order.cardLast4 ? ` · card ending ${order.cardLast4}` : ''}
                  </dd>
                </>
              )}
              {order.refundedAt && (
                <>
                  <dt>Refunded</dt>
                  <dd>
                    {money(order.refundedAmount)} · {dateTime(order.refundedAt)}
                  </dd>
                  {order.refundReason && (
                    <>
                      <dt>Reason</dt>
                      <dd>{order.refundReason}</dd>
                    </>
                  )}
                </>
              )}
              <dt>Date</dt>
              <dd>{dateTime(order.createdAt)}</dd>
            </dl>
            <h3 className="order-details-heading">Items</h3>
            <ul className="order-details-items">
              {order.items.map((item) => (
                <li key={item.id}>
                  <div className="order-details-line">
                    <span>
                      {item.itemUrlUuid ? (
                        <a href={`/ecards/${item.itemUrlUuid}.html?preview=1`} target="_blank" rel="noopener noreferrer">
                          {item.name}
                        </a>
                      ) : (
                        item.name
                      )}
                      {item.quantity > 1 ? ` × ${item.quantity}` : ''}
                      {item.refundedAt && (
                        <Tag minimal intent="danger" className="order-refunded-tag">
                          Refunded
                        </Tag>
                      )}
                    </span>
                    <span className="orders-number">{item.quantity > 1 ? `${money(item.price)} each · ${money(item.lineTotal)}` : money(item.price)}</span>
                  </div>
                  {item.itemUrlUuid && (
                    <div className="order-details-card">
                      <span>
                        To {item.recipientName} &lt;{item.recipientEmail}&gt; from {item.senderName}
                      </span>
                      <span>{item.deliveredAt ? `Delivered ${dateTime(item.deliveredAt)}` : item.deliverAt ? `Due ${dateTime(item.deliverAt)}` : ''}</span>
                      <span className={item.openedAt ? 'order-opened' : 'muted'}>{item.openedAt ? `Opened ${dateTime(item.openedAt)}` : 'Not opened yet'}</span>
                      {item.remindedAt && <span className="muted">Reminder sent {dateTime(item.remindedAt)}</span>}
                      {item.message && <blockquote className="order-details-message">{item.message}</blockquote>}
                      {item.notDeliveredReason && !item.deliveredAt && <Tag minimal intent="warning">{item.notDeliveredReason}</Tag>}
                      {order.status === 'REFUNDED' || item.refundedAt ? (
                        <Tag minimal intent="danger">Withdrawn</Tag>
                      ) : item.deliveredAt ? (
                        // Only a card that went out can be sent again; one still due goes on its day.
                        <Button size="small" variant="outlined" icon="envelope" text="Resend e-mail" onClick={() => setResending({ id: item.id, email: item.recipientEmail ?? '' })} />
                      ) : null}
                    </div>
                  )}
                </li>
              ))}
            </ul>
            <OrderEmails orderId={order.id} emails={order.emails} />
            <h3 className="order-details-heading">Timeline</h3>
            <ol className="order-timeline" aria-label="Timeline">
              {order.timeline.map((event, index) => (
                <li key={index} className={`order-timeline-${event.kind}`}>
                  <span className="muted">{dateTime(event.at)}</span> {event.text}
                </li>
              ))}
            </ol>
            <OrderNotes orderId={order.id} notes={order.notes} />
          </>
        )}
      </DialogBody>
      <DialogFooter actions={<>{order && <RefundButton order={order} />}<Button text="Close" onClick={onClose} /></>} />
      <ConfirmAlert isOpen={resending !== null} confirmText="Resend" message={`Send the card's e-mail to ${resending?.email ?? ''} again?`} onConfirm={() => void confirmResend()} onCancel={() => setResending(null)} />
    </Dialog>
  );
}
