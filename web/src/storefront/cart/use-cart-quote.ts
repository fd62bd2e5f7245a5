import { useEffect, useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { cart, useCartLines } from './cart-store';
import { CartQuoteQuery } from './cart-operations';
import { toQuoteInputs } from './cart-lines';
import { pageLocale } from '../../i18n/page-intl';

/**
 * The cart priced by the shop. Prices never come from the browser: each line is priced from the
 * catalogue, and lines whose product is gone are dropped from the cart with a notice.
 */
export function useCartQuote(discountCode: string | null = null) {
  const lines = useCartLines();
  const variables = { lines: toQuoteInputs(lines), ...(discountCode ? { discountCode } : {}), locale: pageLocale() };
  const result = useQuery(CartQuoteQuery, { variables, skip: lines.length === 0, fetchPolicy: 'cache-and-network' });
  const [dropped, setDropped] = useState<string[]>([]);
  const gone = result.data?.cartQuote.droppedProductIds;

  useEffect(() => {
    if (gone?.length) {
      const names = cart.drop(gone);
      if (names.length) setDropped((earlier) => [...earlier, ...names]);
    }
  }, [gone]);

  const quote = lines.length === 0 ? null : result.data?.cartQuote ?? null;
  // Each quote line names the position of the cart line it prices; until every line is priced (a gone
  // product is being dropped), nothing is shown as priced.
  const byIndex = new Map(quote?.lines.map((q) => [q.index, q]));
  const priced = quote && lines.every((_, i) => byIndex.has(i)) ? lines.map((line, i) => ({ line, quote: byIndex.get(i)! })) : null;
  return { lines, quote, priced, dropped, loading: result.loading, error: result.error, refetch: result.refetch };
}
