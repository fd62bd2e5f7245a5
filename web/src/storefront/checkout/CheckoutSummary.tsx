import { Link } from 'react-router-dom';
import { FormattedMessage, useIntl } from 'react-intl';
import { Callout, Card, Spinner } from '@blueprintjs/core';
import { formatPrice, giftCardName, regularLineTotal } from '../common/price';
import { SalePrice } from '../common/SalePrice';
import { localRecipientNames } from '../cart/recipient-names';
import { QuoteAdjustments } from '../cart/QuoteAdjustments';
import type { useCartQuote } from '../cart/use-cart-quote';
import type { AppliedGiftCard } from './GiftCardField';

type CartQuote = ReturnType<typeof useCartQuote>;

/** The checkout's "Your order": each line as the shop priced it, the discount, the total, and what a gift card pays of it. */
export function CheckoutSummary({ quote, priced, quoteError, discountCode, giftCard, split }: {
  quote: CartQuote['quote'];
  priced: CartQuote['priced'];
  quoteError: CartQuote['error'];
  discountCode: string | null;
  giftCard: AppliedGiftCard | null;
  split: { giftCard: string; card: string } | null;
}) {
  const intl = useIntl();
  return (
    <Card className="checkout-summary" aria-label={intl.formatMessage({ id: 'checkout.summary.label', defaultMessage: 'Order summary' })}>
      <h2>
        <FormattedMessage id="checkout.summary.title" defaultMessage="Your order" />
      </h2>
      {quoteError && !quote ? (
        <Callout intent="danger">{quoteError.message}</Callout>
      ) : !priced || !quote ? (
        <Spinner size={24} />
      ) : (
        <>
          <ul>
            {priced.map(({ line, quote: q }) => (
              <li key={line.id}>
                <span>
                  {q.quantity > 1 ? `${intl.formatMessage({ id: 'checkout.summary.quantity', defaultMessage: '{count} ×' }, { count: q.quantity })} ` : ''}
                  {q.product.name}
                  {line.personalisation && (
                    <span className="muted">
                      {' '}
                      <FormattedMessage id="checkout.summary.for" defaultMessage="for {names}" values={{ names: localRecipientNames(intl, line.personalisation.recipients) }} />
                    </span>
                  )}
                  {line.giftMembership && (
                    <span className="muted">
                      {' '}
                      <FormattedMessage id="checkout.summary.membershipFor" defaultMessage="({plan}) for {name}" values={{ plan: q.giftPlanName ?? line.giftMembership.planName, name: line.giftMembership.recipientName }} />
                    </span>
                  )}
                  {line.giftCard && (
                    <span className="muted">
                      {' '}
                      <FormattedMessage id="checkout.summary.for" defaultMessage="for {names}" values={{ names: line.giftCard.recipientName }} />
                    </span>
                  )}
                  {q.memberNote && <span className="checkout-member-note">{q.memberNote}</span>}
                </span>
                <SalePrice className="checkout-line-price" price={q.lineTotal} compareAt={regularLineTotal(q)} badge={null} />
              </li>
            ))}
          </ul>
          <QuoteAdjustments quote={quote} variant="checkout" />
          {discountCode && quote.discountKind && quote.discountKind !== 'CODE' && (
            <p className="muted checkout-discount-note">
              <FormattedMessage
                id="checkout.discount.better"
                defaultMessage="Your code {code} saves less than “{name}”, so that discount applies instead (they do not add up)."
                values={{ code: discountCode, name: quote.discountName }}
              />
            </p>
          )}
          <div className="checkout-total">
            <span>
              <FormattedMessage id="checkout.total" defaultMessage="Total" />
            </span>
            <strong>{formatPrice(quote.total)}</strong>
          </div>
          {giftCard && split && (
            <div className="checkout-gift-card-split" data-testid="checkout-gift-card">
              <div className="checkout-subtotal checkout-discount-line">
                <span>{giftCardName(giftCard.card.last4)}</span>
                <span>−{formatPrice(split.giftCard)}</span>
              </div>
              <div className="checkout-subtotal checkout-to-pay">
                <span>
                  <FormattedMessage id="checkout.toPayByCard" defaultMessage="To pay by card" />
                </span>
                <strong>{formatPrice(split.card)}</strong>
              </div>
            </div>
          )}
          <Link to="/cart">
            <FormattedMessage id="checkout.changeCart" defaultMessage="Change your cart" />
          </Link>
        </>
      )}
    </Card>
  );
}
