import { useCallback, useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { useIntl } from 'react-intl';
import { Button, FormGroup } from '@blueprintjs/core';
import { CodeEntry } from './CodeEntry';
import { useErrorText } from '../../i18n/input-messages';
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
  const intl = useIntl();
  const errorText = useErrorText();
  return useCallback(
    async (code) => {
      const unread = intl.formatMessage({ id: 'checkout.giftCard.unread', defaultMessage: 'The gift card could not be read. Please try again.' });
      try {
        const { data } = await client.query({ query: CheckoutGiftCardQuery, variables: { code }, fetchPolicy: 'network-only' });
        return data ? { card: data.giftCardBalance } : { problem: unread };
      } catch (error) {
        return { problem: errorText(error, unread) };
      }
    },
    [client, intl, errorText],
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
  const intl = useIntl();
  const label = intl.formatMessage({ id: 'checkout.giftCard.label', defaultMessage: 'Gift card' });
  const [text, setText] = useState(applied?.code ?? '');
  const [checking, setChecking] = useState(false);

  const apply = async () => {
    const code = text.trim();
    if (!code) return onProblem(intl.formatMessage({ id: 'checkout.giftCard.missing', defaultMessage: 'Enter the code of your gift card.' }));
    setChecking(true);
    const found = await lookUp(code);
    setChecking(false);
    if ('problem' in found) return onProblem(found.problem);
    if (!(Number(found.card.balance) > 0)) return onProblem(intl.formatMessage({ id: 'checkout.giftCard.empty', defaultMessage: '{card} has no balance left.' }, { card: giftCardName(found.card.last4) }));
    onProblem(null);
    onApplied({ code, card: found.card });
  };

  if (applied) {
    return (
      <FormGroup label={label} helperText={problem ?? undefined} intent={problem ? 'danger' : 'none'}>
        <div className="checkout-gift-card" role="group" aria-label={intl.formatMessage({ id: 'checkout.giftCard.applied', defaultMessage: 'Gift card applied' })}>
          <span>
            <strong>{giftCardName(applied.card.last4)}</strong>
            <span className="muted">
              {' '}
              ·{' '}
              {pays
                ? intl.formatMessage({ id: 'checkout.giftCard.balancePays', defaultMessage: '{balance} balance, pays {amount}' }, { balance: formatPrice(applied.card.balance), amount: formatPrice(pays) })
                : intl.formatMessage({ id: 'checkout.giftCard.balance', defaultMessage: '{balance} balance' }, { balance: formatPrice(applied.card.balance) })}
            </span>
          </span>
          <Button size="small" variant="minimal" intent="primary" text={intl.formatMessage({ id: 'checkout.giftCard.remove', defaultMessage: 'Remove' })} aria-label={intl.formatMessage({ id: 'checkout.giftCard.removeLabel', defaultMessage: 'Remove {card}' }, { card: giftCardName(applied.card.last4) })} onClick={() => onApplied(null)} />
        </div>
      </FormGroup>
    );
  }
  return (
    <CodeEntry
      id="gift-card-code"
      label={label}
      text={text}
      onText={setText}
      problem={problem}
      onProblem={onProblem}
      onApply={() => void apply()}
      checking={checking}
      // Named apart from the discount code's "Apply" beside it.
      applyLabel={intl.formatMessage({ id: 'checkout.giftCard.apply', defaultMessage: 'Apply gift card' })}
      inputProps={{ placeholder: 'XXXX-XXXX-XXXX-XXXX', autoCapitalize: 'characters', spellCheck: false }}
    />
  );
}
