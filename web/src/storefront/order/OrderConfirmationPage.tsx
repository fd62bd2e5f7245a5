import { lazy, Suspense, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
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

const dateTime = longDateTime;

/** /order-confirmation/{id}: the order, and a link to each of its e-cards. */
export default function OrderConfirmationPage() {
  const id = useParams().id ?? '';
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
        <EmptyState level={1} icon="search" title="Order not found" description={error && !error.message.includes('not found') ? error.message : 'Check the link in your receipt e-mail.'} action={<Link to="/shop">Back to the shop</Link>} />
      </div>
    );
  }

  // Lines sold below the price they were compared with (a sale) show it struck through; the saving, said as the
  // receipt says it, adds them up with the discount (a discount alone has its own line).
  const belowRegular = order.items.reduce((total, item) => total + (wasOf(item) ? Number(wasOf(item)) - Number(item.lineTotal) : 0), 0);
  const saved = belowRegular > 0 ? belowRegular + Number(order.discountAmount) : 0;
  const giftCard = paidWithGiftCard(order);
  const byCard = order.cardLast4 ? `the card ending ${order.cardLast4}` : null;

  return (
    <div className="store-page confirmation-page">
      {/* The page's heading is the banner's title: what the shopper came to read. */}
      <Callout intent="success" icon="tick-circle" className="confirmation-banner">
        <h1 className={`${Classes.HEADING} confirmation-title`}>Thank you! Your order is confirmed.</h1>
        A receipt is on its way to {order.purchaserEmail}.
      </Callout>
      <Card className="confirmation-card">
        <dl className="confirmation-facts">
          <dt>Order number</dt>
          <dd className="confirmation-id">{orderNumber(order.id)}</dd>
          <dt>Status</dt>
          <dd>
            <Tag intent={order.status === 'DELIVERED' ? 'success' : 'primary'} minimal>
              {order.status.toLowerCase()}
            </Tag>
          </dd>
          <dt>Placed</dt>
          <dd>{dateTime(order.createdAt)}</dd>
          <dt>Paid</dt>
          <dd>
            {formatPrice(order.total)}
            {giftCard ? ` with a gift card${byCard && Number(giftCard.card) > 0 ? ` and ${byCard}` : ''}` : byCard ? ` with ${byCard}` : ''}
          </dd>
        </dl>
        <ul className="confirmation-items" aria-label="Items">
          {order.items.map((item) => (
            <li key={item.id}>
              <div className="confirmation-item-line">
                <span>
                  {item.quantity > 1 ? `${item.quantity} × ` : ''}
                  {item.name}
                </span>
                <SalePrice price={item.lineTotal} compareAt={wasOf(item)} />
              </div>
              {item.ecardPath && (
                <div className="confirmation-ecard">
                  <span className="muted">
                    To {item.recipientName} &lt;{item.recipientEmail}&gt; ·{' '}
                    {item.deliveredAt ? `sent ${dateTime(item.deliveredAt)}` : item.deliverAt && new Date(item.deliverAt) > new Date(order.createdAt) ? `will be sent ${dateTime(item.deliverAt)}` : 'being sent now'}
                  </span>
                  <AnchorButton href={`${item.ecardPath}?preview=1`} target="_blank" rel="noopener noreferrer" icon="envelope" endIcon="share" variant="outlined" text="View the e-card" />
                </div>
              )}
              {item.groupCard && <GroupCardSection orderId={order.id} itemId={item.id} recipientName={item.recipientName ?? ''} groupCard={item.groupCard} />}
            </li>
          ))}
        </ul>
        {saved > 0 && (
          <p className="confirmation-saved">
            You saved <strong>{formatPrice(saved.toFixed(2))}</strong> on this order.
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
              <span>Total</span>
              <span>{formatPrice(order.total)}</span>
            </div>
            {giftCard && (
              <>
                <div className="confirmation-item-line confirmation-discount confirmation-gift-card">
                  <span>{giftCard.label}</span>
                  <span>−{formatPrice(giftCard.giftCard)}</span>
                </div>
                <div className="confirmation-item-line">
                  <span>Paid by card</span>
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
        <Link to="/shop">Continue shopping</Link>
        {signedIn && <Link to="/account">My orders</Link>}
      </div>
    </div>
  );
}

/** What a line would have cost at the price it was compared with, when that is higher; null otherwise. */
function wasOf(item: { compareAtPrice?: string | null; price: string; quantity: number }): string | null {
  if (!item.compareAtPrice || Number(item.compareAtPrice) <= Number(item.price)) return null;
  return (Math.round(Number(item.compareAtPrice) * 100) * item.quantity / 100).toFixed(2);
}
