import { useCallback, useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { Button, FormGroup } from '@blueprintjs/core';
import { CodeEntry } from './CodeEntry';
import { errorMessage } from '../../apollo/errors';
import type { CheckoutGiftCardQuery as CheckoutGiftCardData } from '../../apollo/generated/graphql';
import { formatPrice, giftCardName } from '../common/price';
import { CheckoutGiftCardQuery } from './checkout-operations';

/** A gift card the shopper applied: the code as typed (sent with the order) and what it held when looked up. */
export interface AppliedGiftCard {
  code: string;
  card: CheckoutGiftCardData['giftCardBalance'];
}

/**
 * Looks a code up at the shop, never from the cache: the card's balance, or the shop's reason it has
 * none to give (an unknown code, too many look-ups this hour). The balance page has a query of its
 * own, so that this page's scripts stay its own.
 */
export function useGiftCardLookup(): (code: string) => Promise<{ card: AppliedGiftCard['card'] } | { problem: string }> {
  const client = useApolloClient();
  return useCallback(
    async (code) => {
      try {
        const { data } = await client.query({ query: CheckoutGiftCardQuery, variables: { code }, fetchPolicy: 'network-only' });
        return data ? { card: data.giftCardBalance } : { problem: 'The gift card could not be read. Please try again.' };
      } catch (error) {
        return { problem: errorMessage(error, 'The gift card could not be read. Please try again.') };
      }
    },
    [client],
  );
}

/**
 * "Gift card" and "Apply": the shop looks the code up and the summary shows what the card pays; an
 * unknown code, one with nothing left or too many look-ups show the shop's reason on the field.
 * The order itself spends the card (placeOrder's giftCardCode), for as much as it holds then.
 */
export function GiftCardField({ applied, pays, onApplied, problem, onProblem }: {
  applied: AppliedGiftCard | null;
  /** What the applied card pays of this order. */
  pays: string | null;
  onApplied: (card: AppliedGiftCard | null) => void;
  problem: string | null;
  onProblem: (message: string | null) => void;
}) {
  const lookUp = useGiftCardLookup();
  const [text, setText] = useState(applied?.code ?? '');
  const [checking, setChecking] = useState(false);

  const apply = async () => {
    const code = text.trim();
    if (!code) return onProblem('Enter the code of your gift card.');
    setChecking(true);
    const found = await lookUp(code);
    setChecking(false);
    if ('problem' in found) return onProblem(found.problem);
    if (!(Number(found.card.balance) > 0)) return onProblem(`${giftCardName(found.card.last4)} has no balance left.`);
    onProblem(null);
    onApplied({ code, card: found.card });
  };

  if (applied) {
    return (
      <FormGroup label="Gift card" helperText={problem ?? undefined} intent={problem ? 'danger' : 'none'}>
        <div className="checkout-gift-card" role="group" aria-label="Gift card applied">
          <span>
            <strong>{giftCardName(applied.card.last4)}</strong>
            <span className="muted">
              {' '}
              · {formatPrice(applied.card.balance)} balance{pays ? `, pays ${formatPrice(pays)}` : ''}
            </span>
          </span>
          <Button size="small" variant="minimal" intent="primary" text="Remove" aria-label={`Remove ${giftCardName(applied.card.last4)}`} onClick={() => onApplied(null)} />
        </div>
      </FormGroup>
    );
  }
  return (
    <CodeEntry
      id="gift-card-code"
      label="Gift card"
      text={text}
      onText={setText}
      problem={problem}
      onProblem={onProblem}
      onApply={() => void apply()}
      checking={checking}
      // Named apart from the discount code's "Apply" beside it.
      applyLabel="Apply gift card"
      inputProps={{ placeholder: 'XXXX-XXXX-XXXX-XXXX', autoCapitalize: 'characters', spellCheck: false }}
    />
  );
}
