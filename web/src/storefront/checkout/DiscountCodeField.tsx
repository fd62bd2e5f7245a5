import { useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { FormGroup, Tag } from '@blueprintjs/core';
import { CodeEntry } from './CodeEntry';
import { errorMessage } from '../../apollo/errors';
import { CartQuoteQuery } from '../cart/cart-operations';
import { pageLocale } from '../../i18n/page-intl';
import { toQuoteInputs, type CartLine } from '../cart/cart-lines';

/**
 * "Discount code" and "Apply": the shop prices the cart with the code; an unknown, expired or used-up
 * code shows the shop's reason and leaves the price as it was.
 */
export function DiscountCodeField({ lines, applied, onApplied, problem, onProblem }: {
  lines: CartLine[];
  applied: string | null;
  onApplied: (code: string | null) => void;
  problem: string | null;
  onProblem: (message: string | null) => void;
}) {
  const client = useApolloClient();
  const [text, setText] = useState(applied ?? '');
  const [checking, setChecking] = useState(false);

  const apply = async () => {
    const code = text.trim();
    if (!code) return onProblem('Enter a discount code.');
    setChecking(true);
    try {
      const lineInputs = toQuoteInputs(lines);
      const { data } = await client.query({ query: CartQuoteQuery, variables: { lines: lineInputs, discountCode: code, locale: pageLocale() }, fetchPolicy: 'network-only' });
      onProblem(null);
      onApplied(data?.cartQuote.discountCode ?? code);
    } catch (error) {
      onProblem(errorMessage(error, 'This discount code cannot be used.'));
    } finally {
      setChecking(false);
    }
  };

  if (applied) {
    return (
      <FormGroup label="Discount code">
        <Tag large intent="success" icon="tag" onRemove={() => onApplied(null)} aria-label={`Discount code ${applied}`}>
          {applied}
        </Tag>
      </FormGroup>
    );
  }
  return <CodeEntry id="discount-code" label="Discount code" text={text} onText={setText} problem={problem} onProblem={onProblem} onApply={() => void apply()} checking={checking} />;
}
