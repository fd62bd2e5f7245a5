import { FormattedMessage } from 'react-intl';
import { discountLabel, formatPrice, membershipSaving } from '../common/price';
import type { useCartQuote } from './use-cart-quote';

type Quote = NonNullable<ReturnType<typeof useCartQuote>['quote']>;

/** The rows' classes in the cart's summary and in checkout's "Your order" (each styles its own). */
const CLASSES = {
  cart: { row: 'cart-summary-row', membership: 'cart-membership', subtotal: 'cart-subtotal', discount: 'cart-discount' },
  checkout: { row: 'checkout-subtotal', membership: 'checkout-membership', subtotal: '', discount: 'checkout-discount-line' },
} as const;

/**
 * What changes a quote's total before it is paid, as the cart and checkout both show it: the
 * shopper's membership and what it saves, then the subtotal and the discount that applies.
 */
export function QuoteAdjustments({ quote, variant }: { quote: Quote; variant: keyof typeof CLASSES }) {
  const classes = CLASSES[variant];
  const row = (kind: string) => (kind ? `${classes.row} ${kind}` : classes.row);
  const discount = discountLabel(quote);
  return (
    <>
      {quote.membershipName && (
        <div className={row(classes.membership)} data-testid={`${variant}-membership`}>
          <span>
            <FormattedMessage id="cart.membership" defaultMessage="{plan} membership" values={{ plan: quote.membershipName }} />
          </span>
          <span>
            <FormattedMessage id="cart.membershipSaving" defaultMessage="You save {amount}" values={{ amount: formatPrice(membershipSaving(quote.lines)) }} />
          </span>
        </div>
      )}
      {discount && (
        <>
          <div className={row(classes.subtotal)}>
            <span>
              <FormattedMessage id="cart.subtotal" defaultMessage="Subtotal" />
            </span>
            <span>{formatPrice(quote.subtotal)}</span>
          </div>
          <div className={row(classes.discount)} data-testid={`${variant}-discount`}>
            <span>{discount}</span>
            <span>−{formatPrice(quote.discount)}</span>
          </div>
        </>
      )}
    </>
  );
}
