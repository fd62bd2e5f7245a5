import { formatPrice } from './price';

/**
 * A price as the shop shows it: on sale (a compare-at price above it), a "Sale" badge, the price
 * and the regular price struck through, read as "Sale: $3.60, was $4.50". A member's price has no
 * badge (its line says what the membership did) and is read as "Now: $0.00, was $4.50".
 */
export function SalePrice({ price, compareAt, className = '', badge = 'Sale' }: { price: string; compareAt?: string | null; className?: string; badge?: string | null }) {
  if (!compareAt) return <span className={className}>{formatPrice(price)}</span>;
  return (
    <span className={`${className} sale-price`}>
      {badge ? <span className="sale-badge">{badge}</span> : <span className="visually-hidden">Now</span>}
      <span className="visually-hidden">: </span>
      <span className="sale-now">{formatPrice(price)}</span>
      <span className="visually-hidden">, was </span>
      <s className="sale-was">{formatPrice(compareAt)}</s>
    </span>
  );
}
