import { lazy, Suspense, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import { FormattedMessage, useIntl } from 'react-intl';
import { useQuery } from '@apollo/client/react';
import { AnchorButton, Callout, Card, Classes, Spinner, Tag } from '@blueprintjs/core';
import { orderNumber } from '@rules';
import { useAuth } from '../../auth/auth-store';
import { discountLabel, formatPrice, paidWithGiftCard } from '../common/price';
import { longDateTime } from '../common/dates';
import { SalePrice } from '../common/SalePrice';
import { ConfirmationOrderQuery } from './order-operations';
import { GroupCardSection } from '../group-card/GroupCardSection';
import '../common/storefront.css';
import './order.css';
import { EmptyState } from '../../common/EmptyState';

/** The guest's account offer: below the order, loaded after it (a first visit fetches no more than the order needs). */
const GuestAccountOffer = lazy(() => import('./GuestAccountOffer').then((m) => ({ default: m.GuestAccountOffer })));

/** /order-confirmation/{id}: the order, and a link to each of its e-cards. */
export default function OrderConfirmationPage() {
  const id = useParams().id ?? '';
  const intl = useIntl();
  const signedIn = useAuth().user !== null;
  // The address as typed at checkout, when this browser placed the order (the page shows it masked).
  const typed = (useLocation().state as { purchaserEmail?: unknown } | null)?.purchaserEmail;
  // The offer stays, to say what happens next, once it has made the account and signed in.
  const [offerTaken, setOfferTaken] = useState(false);
  const { data, loading, error } = useQuery(ConfirmationOrderQuery, { variables: { id } });
  const order = data?.order;

  if (loading && !order) return <Spinner className="store-state" />;
  if (!order) {
    return (
      <div className="store-page">
        <EmptyState
          level={1}
          icon="search"
          title={intl.formatMessage({ id: 'order.notFound.title', defaultMessage: 'Order not found' })}
          description={error && !error.message.includes('not found') ? error.message : intl.formatMessage({ id: 'order.notFound.description', defaultMessage: 'Check the link in your receipt e-mail.' })}
          action={
            <Link to="/shop">
              <FormattedMessage id="order.notFound.back" defaultMessage="Back to the shop" />
            </Link>
          }
        />
      </div>
    );
  }

  // Lines sold below the price they were compared with (a sale) show it struck through; the saving, said as the
  // receipt says it, adds them up with the discount (a discount alone has its own line).
  const belowRegular = order.items.reduce((total, item) => total + (wasOf(item) ? Number(wasOf(item)) - Number(item.lineTotal) : 0), 0);
  const saved = belowRegular > 0 ? belowRegular + Number(order.discountAmount) : 0;
  const giftCard = paidWithGiftCard(order);
  const byCard = Boolean(order.cardLast4);
  const paidWith = giftCard
    ? byCard && Number(giftCard.card) > 0
      ? intl.formatMessage({ id: 'order.paid.giftCardAndCard', defaultMessage: '{total} with a gift card and the card ending {last4}' }, { total: formatPrice(order.total), last4: order.cardLast4 })
      : intl.formatMessage({ id: 'order.paid.giftCard', defaultMessage: '{total} with a gift card' }, { total: formatPrice(order.total) })
    : byCard
      ? intl.formatMessage({ id: 'order.paid.card', defaultMessage: '{total} with the card ending {last4}' }, { total: formatPrice(order.total), last4: order.cardLast4 })
      : formatPrice(order.total);

  return (
    <div className="store-page confirmation-page">
      {/* The page's heading is the banner's title: what the shopper came to read. */}
      <Callout intent="success" icon="tick-circle" className="confirmation-banner">
        <h1 className={`${Classes.HEADING} confirmation-title`}>
          <FormattedMessage id="order.confirmed.title" defaultMessage="Thank you! Your order is confirmed." />
        </h1>
        <FormattedMessage id="order.confirmed.receipt" defaultMessage="A receipt is on its way to {email}." values={{ email: order.purchaserEmail }} />
      </Callout>
      <Card className="confirmation-card">
        <dl className="confirmation-facts">
          <dt>
            <FormattedMessage id="order.facts.number" defaultMessage="Order number" />
          </dt>
          <dd className="confirmation-id">{orderNumber(order.id)}</dd>
          <dt>
            <FormattedMessage id="order.facts.status" defaultMessage="Status" />
          </dt>
          <dd>
            <Tag intent={order.status === 'DELIVERED' ? 'success' : 'primary'} minimal>
              <FormattedMessage
                id="order.status"
                defaultMessage="{status, select, PENDING {pending} PAID {paid} DELIVERED {delivered} PARTIALLY_REFUNDED {partially_refunded} REFUNDED {refunded} CANCELLED {cancelled} other {{lower}}}"
                values={{ status: order.status, lower: order.status.toLowerCase() }}
              />
            </Tag>
          </dd>
          <dt>
            <FormattedMessage id="order.facts.placed" defaultMessage="Placed" />
          </dt>
          <dd>{longDateTime(order.createdAt)}</dd>
          <dt>
            <FormattedMessage id="order.facts.paid" defaultMessage="Paid" />
          </dt>
          <dd>{paidWith}</dd>
        </dl>
        <ul className="confirmation-items" aria-label={intl.formatMessage({ id: 'order.items', defaultMessage: 'Items' })}>
          {order.items.map((item) => (
            <li key={item.id}>
              <div className="confirmation-item-line">
                <span>
                  {item.quantity > 1 ? `${intl.formatMessage({ id: 'checkout.summary.quantity', defaultMessage: '{count} ×' }, { count: item.quantity })} ` : ''}
                  {item.name}
                </span>
                <SalePrice price={item.lineTotal} compareAt={wasOf(item)} />
              </div>
              {item.ecardPath && (
                <div className="confirmation-ecard">
                  <span className="muted">
                    <FormattedMessage
                      id="order.ecard.to"
                      defaultMessage="To {name} <{email}> · {when}"
                      values={{
                        name: item.recipientName,
                        email: item.recipientEmail,
                        when: item.deliveredAt
                          ? intl.formatMessage({ id: 'order.ecard.sent', defaultMessage: 'sent {date}' }, { date: longDateTime(item.deliveredAt) })
                          : item.deliverAt && new Date(item.deliverAt) > new Date(order.createdAt)
                            ? intl.formatMessage({ id: 'order.ecard.willBeSent', defaultMessage: 'will be sent {date}' }, { date: longDateTime(item.deliverAt) })
                            : intl.formatMessage({ id: 'order.ecard.sendingNow', defaultMessage: 'being sent now' }),
                      }}
                    />
                  </span>
                  <AnchorButton href={`${item.ecardPath}?preview=1`} target="_blank" rel="noopener noreferrer" icon="envelope" endIcon="share" variant="outlined" text={intl.formatMessage({ id: 'order.ecard.view', defaultMessage: 'View the e-card' })} />
                </div>
              )}
              {item.groupCard && <GroupCardSection orderId={order.id} itemId={item.id} recipientName={item.recipientName ?? ''} groupCard={item.groupCard} />}
            </li>
          ))}
        </ul>
        {saved > 0 && (
          <p className="confirmation-saved">
            <FormattedMessage id="order.saved" defaultMessage="You saved <b>{amount}</b> on this order." values={{ amount: formatPrice(saved.toFixed(2)), b: (chunks) => <strong>{chunks}</strong> }} />
          </p>
        )}
        {(discountLabel(order) || giftCard) && (
          <div className="confirmation-totals">
            {discountLabel(order) && (
              <div className="confirmation-item-line confirmation-discount">
                <span>{discountLabel(order)}</span>
                <span>−{formatPrice(order.discountAmount)}</span>
              </div>
            )}
            <div className="confirmation-item-line">
              <span>
                <FormattedMessage id="checkout.total" defaultMessage="Total" />
              </span>
              <span>{formatPrice(order.total)}</span>
            </div>
            {giftCard && (
              <>
                <div className="confirmation-item-line confirmation-discount confirmation-gift-card">
                  <span>{giftCard.label}</span>
                  <span>−{formatPrice(giftCard.giftCard)}</span>
                </div>
                <div className="confirmation-item-line">
                  <span>
                    <FormattedMessage id="order.paidByCard" defaultMessage="Paid by card" />
                  </span>
                  <span>{formatPrice(giftCard.card)}</span>
                </div>
              </>
            )}
          </div>
        )}
      </Card>
      {(!signedIn || offerTaken) && (
        <Suspense fallback={null}>
          <GuestAccountOffer email={typeof typed === 'string' ? typed : ''} onCreated={() => setOfferTaken(true)} />
        </Suspense>
      )}
      <div className="confirmation-links">
        <Link to="/shop">
          <FormattedMessage id="cart.continueShopping" defaultMessage="Continue shopping" />
        </Link>
        {signedIn && (
          <Link to="/account">
            <FormattedMessage id="account.title" defaultMessage="My orders" />
          </Link>
        )}
      </div>
    </div>
  );
}

/** What a line would have cost at the price it was compared with, when that is higher; null otherwise. */
function wasOf(item: { compareAtPrice?: string | null; price: string; quantity: number }): string | null {
  if (!item.compareAtPrice || Number(item.compareAtPrice) <= Number(item.price)) return null;
  return (Math.round(Number(item.compareAtPrice) * 100) * item.quantity / 100).toFixed(2);
}
