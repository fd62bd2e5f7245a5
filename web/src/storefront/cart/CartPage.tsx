import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button, Callout, Card, Icon, NumericInput, Spinner } from '@blueprintjs/core';
import { recipientNames } from '@rules';
import { discountLabel, formatPrice, lineTotal, membershipSaving, regularLineTotal } from '../common/price';
import { SalePrice } from '../common/SalePrice';
import type { CartLine } from './cart-lines';
import { MAX_QUANTITY } from './cart-lines';
import { cart } from './cart-store';
import { useCartQuote } from './use-cart-quote';
import '../common/storefront.css';
import './cart.css';
import { EmptyState } from '../../common/EmptyState';

const RecipientPreviewDialog = lazy(() => import('../preview/RecipientPreviewDialog'));

/** /cart: what the shopper is about to buy, priced by the shop. */
export default function CartPage() {
  const navigate = useNavigate();
  const { lines, quote, priced, dropped, error, refetch } = useCartQuote();
  // The card line being previewed, as its first recipient will see it.
  const [previewing, setPreviewing] = useState<CartLine | null>(null);

  return (
    <div className="store-page cart-page">
      <h1>Your cart</h1>
      {dropped.length > 0 && (
        <Callout intent="warning" icon="warning-sign" className="cart-notice">
          {dropped.map((name, i) => (
            <p key={i}>“{name}” is no longer available and was removed from your cart.</p>
          ))}
        </Callout>
      )}
      {lines.length === 0 ? (
        <EmptyState className="store-state" icon="shopping-cart" title="Your cart is empty" description="Find a card with a song for someone special." action={<Link to="/shop">Browse the shop</Link>} />
      ) : error && !quote ? (
        <Callout intent="danger" title="Your cart could not be priced">
          <p>{error.message}</p>
          <Button text="Try again" onClick={() => void refetch()} />
        </Callout>
      ) : !priced || !quote ? (
        <Spinner className="store-state" />
      ) : (
        <div className="cart-layout">
          <ul className="cart-lines" aria-label="Cart lines">
            {priced.map(({ line, quote: lineQuote }) => (
              <li key={line.id}>
                <Card className="cart-line">
                  <Link to={`/product/${line.productId}`} className="cart-line-image" aria-label={lineQuote.product.name}>
                    {lineQuote.product.mainImageThumbnailPath ? <img src={`/api/${lineQuote.product.mainImageThumbnailPath}`} alt="" width={72} height={96} decoding="async" /> : <Icon icon="media" size={28} />}
                  </Link>
                  <div className="cart-line-text">
                    <Link to={`/product/${line.productId}`} className="cart-line-name">
                      {lineQuote.product.name}
                    </Link>
                    {line.giftCard ? (
                      <span className="muted cart-card-details">
                        Gift card of {formatPrice(lineQuote.unitPrice)} to {line.giftCard.recipientName} &lt;{line.giftCard.recipientEmail}&gt; · from {line.giftCard.senderName} · e-mailed once paid
                      </span>
                    ) : line.giftMembership ? (
                      <span className="muted cart-card-details">
                        {lineQuote.giftPlanName ?? line.giftMembership.planName} membership of {formatPrice(lineQuote.unitPrice)} for {line.giftMembership.recipientName} &lt;{line.giftMembership.recipientEmail}&gt; · from {line.giftMembership.senderName} · its code is e-mailed once paid
                      </span>
                    ) : line.personalisation ? (
                      <CardDetails line={line} unitPrice={lineQuote.unitPrice} />
                    ) : (
                      <span className="muted">{formatPrice(lineQuote.unitPrice)} each</span>
                    )}
                    {lineQuote.memberNote && <span className="cart-member-note">{lineQuote.memberNote}</span>}
                  </div>
                  <div className="cart-line-controls">
                    {line.giftCard || line.giftMembership ? null : line.personalisation ? (
                      <>
                        <Button variant="minimal" icon="eye-open" text="Preview" aria-label={`Preview ${lineQuote.product.name}`} onClick={() => setPreviewing(line)} />
                        <Button variant="minimal" icon="edit" text="Edit" onClick={() => navigate(`/product/${line.productId}?line=${line.id}`)} />
                      </>
                    ) : (
                      <NumericInput
                        aria-label={`Quantity of ${lineQuote.product.name}`}
                        min={1}
                        max={MAX_QUANTITY}
                        value={line.quantity}
                        onValueChange={(value) => Number.isFinite(value) && value >= 1 && cart.setQuantity(line.id, value)}
                        clampValueOnBlur
                        className="cart-quantity"
                      />
                    )}
                    {lineQuote.regularUnitPrice ? (
                      <SalePrice className="cart-line-total" price={lineQuote.lineTotal} compareAt={regularLineTotal(lineQuote)} badge={null} />
                    ) : (
                      <SalePrice className="cart-line-total" price={lineQuote.lineTotal} compareAt={lineQuote.product.compareAtPrice ? lineTotal(lineQuote.product.compareAtPrice, lineQuote.quantity) : null} />
                    )}
                    <Button variant="minimal" icon="trash" aria-label={`Remove ${lineQuote.product.name}`} onClick={() => cart.remove(line.id)} />
                  </div>
                </Card>
              </li>
            ))}
          </ul>
          <Card className="cart-summary">
            {quote.membershipName && (
              <div className="cart-summary-row cart-membership" data-testid="cart-membership">
                <span>{quote.membershipName} membership</span>
                <span>You save {formatPrice(membershipSaving(quote.lines))}</span>
              </div>
            )}
            {discountLabel(quote) && (
              <>
                <div className="cart-summary-row cart-subtotal">
                  <span>Subtotal</span>
                  <span>{formatPrice(quote.subtotal)}</span>
                </div>
                <div className="cart-summary-row cart-discount" data-testid="cart-discount">
                  <span>{discountLabel(quote)}</span>
                  <span>−{formatPrice(quote.discount)}</span>
                </div>
              </>
            )}
            <div className="cart-summary-row">
              <span>{quote.itemCount === 1 ? '1 item' : `${quote.itemCount} items`}</span>
              <strong className="cart-total" data-testid="cart-total">
                {formatPrice(quote.total)}
              </strong>
            </div>
            <Button intent="primary" size="large" fill icon="credit-card" text="Checkout" onClick={() => navigate('/payments')} />
            <Link to="/shop" className="cart-continue">
              Continue shopping
            </Link>
          </Card>
        </div>
      )}
      {previewing?.personalisation && (
        <Suspense>
          <RecipientPreviewDialog productId={previewing.productId} personalisation={previewing.personalisation} onClose={() => setPreviewing(null)} />
        </Suspense>
      )}
    </div>
  );
}

function CardDetails({ line, unitPrice }: { line: CartLine; unitPrice: string }) {
  const p = line.personalisation!;
  const [first] = p.recipients;
  const to = p.recipients.length === 1 ? `To ${first!.name} <${first!.email}>` : `To ${p.recipients.length} recipients (${recipientNames(p.recipients)}), ${formatPrice(unitPrice)} a card`;
  const when = p.deliveryDate ? `sent on ${new Date(`${p.deliveryDate}T${p.deliveryTime}:00`).toLocaleString(undefined, { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit' })}` : 'sent now';
  return (
    <span className="muted cart-card-details">
      {to} · from {p.senderName} · {when}
    </span>
  );
}
