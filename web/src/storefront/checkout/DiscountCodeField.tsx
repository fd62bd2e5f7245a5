import { useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { useIntl } from 'react-intl';
import { FormGroup, Tag } from '@blueprintjs/core';
import { CodeEntry } from './CodeEntry';
import { useErrorText } from '../../i18n/input-messages';
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
  const intl = useIntl();
  const errorText = useErrorText();
  const label = intl.formatMessage({ id: 'checkout.discount.label', defaultMessage: 'Discount code' });
  const [text, setText] = useState(applied ?? '');
  const [checking, setChecking] = useState(false);

  const apply = async () => {
    const code = text.trim();
    if (!code) return onProblem(intl.formatMessage({ id: 'checkout.discount.missing', defaultMessage: 'Enter a discount code.' }));
    setChecking(true);
    try {
      const lineInputs = toQuoteInputs(lines);
      const { data } = await client.query({ query: CartQuoteQuery, variables: { lines: lineInputs, discountCode: code, locale: pageLocale() }, fetchPolicy: 'network-only' });
      onProblem(null);
      onApplied(data?.cartQuote.discountCode ?? code);
    } catch (error) {
      onProblem(errorText(error, intl.formatMessage({ id: 'checkout.discount.refused', defaultMessage: 'This discount code cannot be used.' })));
    } finally {
      setChecking(false);
    }
  };

  if (applied) {
    return (
      <FormGroup label={label}>
        <Tag large intent="success" icon="tag" onRemove={() => onApplied(null)} aria-label={intl.formatMessage({ id: 'checkout.discount.applied', defaultMessage: 'Discount code {code}' }, { code: applied })}>
          {applied}
        </Tag>
      </FormGroup>
    );
  }
  return <CodeEntry id="discount-code" label={label} text={text} onText={setText} problem={problem} onProblem={onProblem} onApply={() => void apply()} checking={checking} />;
}
