import { FormattedMessage, useIntl } from 'react-intl';
import { formatPrice } from './price';

/**
 * A price as the shop shows it: on sale (a compare-at price above it), a "Sale" badge, the price
 * and the regular price struck through, read as "Sale: $3.60, was $4.50". A member's price has no
 * badge (`badge={null}`: its line says what the membership did) and is read as "Now: $0.00, was $4.50".
 */
export function SalePrice({ price, compareAt, className = '', badge }: { price: string; compareAt?: string | null; className?: string; badge?: string | null }) {
  const intl = useIntl();
  if (!compareAt) return <span className={className}>{formatPrice(price)}</span>;
  const shown = badge === undefined ? intl.formatMessage({ id: 'common.price.sale', defaultMessage: 'Sale' }) : badge;
  return (
    <span className={`${className} sale-price`}>
      {shown ? (
        <span className="sale-badge">{shown}</span>
      ) : (
        <span className="visually-hidden">
          <FormattedMessage id="common.price.now" defaultMessage="Now" />
        </span>
      )}
      <span className="visually-hidden">: </span>
      <span className="sale-now">{formatPrice(price)}</span>
      <span className="visually-hidden">, <FormattedMessage id="common.price.was" defaultMessage="was" /> </span>
      <s className="sale-was">{formatPrice(compareAt)}</s>
    </span>
  );
}
