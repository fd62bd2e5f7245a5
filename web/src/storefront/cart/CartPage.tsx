import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { FormattedMessage, useIntl } from 'react-intl';
import { Button, Callout, Card, Icon, NumericInput, Spinner } from '@blueprintjs/core';
import { formatPrice, lineTotal, regularLineTotal } from '../common/price';
import { SalePrice } from '../common/SalePrice';
import type { CartLine } from './cart-lines';
import { MAX_QUANTITY } from './cart-lines';
import { localRecipientNames } from './recipient-names';
import { cart } from './cart-store';
import { useCartQuote } from './use-cart-quote';
import { QuoteAdjustments } from './QuoteAdjustments';
import '../common/storefront.css';
import './cart.css';
import { EmptyState } from '../../common/EmptyState';

const RecipientPreviewDialog = lazy(() => import('../preview/RecipientPreviewDialog'));

/** /cart: what the shopper is about to buy, priced by the shop. */
export default function CartPage() {
  const navigate = useNavigate();
  const intl = useIntl();
  const { lines, quote, priced, dropped, error, refetch } = useCartQuote();
  // The card line being previewed, as its first recipient will see it.
  const [previewing, setPreviewing] = useState<CartLine | null>(null);

  return (
    <div className="store-page cart-page">
      <h1>
        <FormattedMessage id="cart.title" defaultMessage="Your cart" />
      </h1>
      {dropped.length > 0 && (
        <Callout intent="warning" icon="warning-sign" className="cart-notice">
          {dropped.map((name, i) => (
            <p key={i}>
              <FormattedMessage id="cart.dropped" defaultMessage="“{name}” is no longer available and was removed from your cart." values={{ name }} />
            </p>
          ))}
        </Callout>
      )}
      {lines.length === 0 ? (
        <EmptyState
          className="store-state"
          icon="shopping-cart"
          title={intl.formatMessage({ id: 'cart.empty.title', defaultMessage: 'Your cart is empty' })}
          description={intl.formatMessage({ id: 'cart.empty.description', defaultMessage: 'Find a card with a song for someone special.' })}
          action={
            <Link to="/shop">
              <FormattedMessage id="cart.empty.browse" defaultMessage="Browse the shop" />
            </Link>
          }
        />
      ) : error && !quote ? (
        <Callout intent="danger" title={intl.formatMessage({ id: 'cart.priceFailed', defaultMessage: 'Your cart could not be priced' })}>
          <p>{error.message}</p>
          <Button text={intl.formatMessage({ id: 'cart.tryAgain', defaultMessage: 'Try again' })} onClick={() => void refetch()} />
        </Callout>
      ) : !priced || !quote ? (
        <Spinner className="store-state" />
      ) : (
        <div className="cart-layout">
          <ul className="cart-lines" aria-label={intl.formatMessage({ id: 'cart.lines', defaultMessage: 'Cart lines' })}>
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
                        <FormattedMessage
                          id="cart.line.giftCard"
                          defaultMessage="Gift card of {amount} to {name} <{email}> · from {sender} · e-mailed once paid"
                          values={{ amount: formatPrice(lineQuote.unitPrice), name: line.giftCard.recipientName, email: line.giftCard.recipientEmail, sender: line.giftCard.senderName }}
                        />
                      </span>
                    ) : line.giftMembership ? (
                      <span className="muted cart-card-details">
                        <FormattedMessage
                          id="cart.line.giftMembership"
                          defaultMessage="{plan} membership of {amount} for {name} <{email}> · from {sender} · its code is e-mailed once paid"
                          values={{
                            plan: lineQuote.giftPlanName ?? line.giftMembership.planName,
                            amount: formatPrice(lineQuote.unitPrice),
                            name: line.giftMembership.recipientName,
                            email: line.giftMembership.recipientEmail,
                            sender: line.giftMembership.senderName,
                          }}
                        />
                      </span>
                    ) : line.personalisation ? (
                      <CardDetails line={line} unitPrice={lineQuote.unitPrice} />
                    ) : (
                      <span className="muted">
                        <FormattedMessage id="cart.line.each" defaultMessage="{price} each" values={{ price: formatPrice(lineQuote.unitPrice) }} />
                      </span>
                    )}
                    {lineQuote.memberNote && <span className="cart-member-note">{lineQuote.memberNote}</span>}
                  </div>
                  <div className="cart-line-controls">
                    {line.giftCard || line.giftMembership ? null : line.personalisation ? (
                      <>
                        <Button
                          variant="minimal"
                          icon="eye-open"
                          text={intl.formatMessage({ id: 'cart.line.preview', defaultMessage: 'Preview' })}
                          aria-label={intl.formatMessage({ id: 'cart.line.previewLabel', defaultMessage: 'Preview {name}' }, { name: lineQuote.product.name })}
                          onClick={() => setPreviewing(line)} />
                        <Button variant="minimal" icon="edit" text={intl.formatMessage({ id: 'cart.line.edit', defaultMessage: 'Edit' })} onClick={() => navigate(`/product/${line.productId}?line=${line.id}`)} />
                      </>
                    ) : (
                      <NumericInput
                        aria-label={intl.formatMessage({ id: 'cart.line.quantity', defaultMessage: 'Quantity of {name}' }, { name: lineQuote.product.name })}
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
                    <Button variant="minimal" icon="trash" aria-label={intl.formatMessage({ id: 'cart.line.remove', defaultMessage: 'Remove {name}' }, { name: lineQuote.product.name })} onClick={() => cart.remove(line.id)} />
                  </div>
                </Card>
              </li>
            ))}
          </ul>
          <Card className="cart-summary">
            <QuoteAdjustments quote={quote} variant="cart" />
            <div className="cart-summary-row">
              <span>
                <FormattedMessage id="cart.itemCount" defaultMessage="{count, plural, one {# item} other {# items}}" values={{ count: quote.itemCount }} />
              </span>
              <strong className="cart-total" data-testid="cart-total">
                {formatPrice(quote.total)}
              </strong>
            </div>
            <Button intent="primary" size="large" fill icon="credit-card" text={intl.formatMessage({ id: 'cart.checkout', defaultMessage: 'Checkout' })} onClick={() => navigate('/payments')} />
            <Link to="/shop" className="cart-continue">
              <FormattedMessage id="cart.continueShopping" defaultMessage="Continue shopping" />
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
  const intl = useIntl();
  const p = line.personalisation!;
  const [first] = p.recipients;
  const to =
    p.recipients.length === 1
      ? intl.formatMessage({ id: 'cart.card.toOne', defaultMessage: 'To {name} <{email}>' }, { name: first!.name, email: first!.email })
      : intl.formatMessage(
          { id: 'cart.card.toMany', defaultMessage: 'To {count, plural, one {# recipient} other {# recipients}} ({names}), {price} a card' },
          { count: p.recipients.length, names: localRecipientNames(intl, p.recipients), price: formatPrice(unitPrice) },
        );
  const when = p.deliveryDate
    ? intl.formatMessage(
        { id: 'cart.card.sentOn', defaultMessage: 'sent on {date}' },
        { date: intl.formatDate(new Date(`${p.deliveryDate}T${p.deliveryTime}:00`), { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit' }) },
      )
    : intl.formatMessage({ id: 'cart.card.sentNow', defaultMessage: 'sent now' });
  return (
    <span className="muted cart-card-details">
      <FormattedMessage id="cart.card.details" defaultMessage="{to} · from {sender} · {when}" values={{ to, sender: p.senderName, when }} />
    </span>
  );
}
