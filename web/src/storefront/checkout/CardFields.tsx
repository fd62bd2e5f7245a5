import type { Dispatch, SetStateAction } from 'react';
import { useIntl } from 'react-intl';
import { Card, FormGroup, InputGroup } from '@blueprintjs/core';
import { formatCardNumber, formatExpiry, type CardField, type TypedCard } from './card-input';
import './card-fields.css';

/**
 * The shop's own card form (the test provider's; Stripe's element replaces it): number, expiry,
 * security code and the name on the card, each field with the problem found on it.
 */
export function CardFields({ card, onChange, problems, hint, hidden = false }: { card: TypedCard; onChange: Dispatch<SetStateAction<TypedCard>>; problems: Partial<Record<CardField, string>>; hint?: string | null; hidden?: boolean }) {
  const intl = useIntl();
  const field = (name: CardField) => ({ intent: problems[name] ? ('danger' as const) : ('none' as const), helperText: problems[name] });
  const set = (changes: Partial<TypedCard>) => onChange((current) => ({ ...current, ...changes }));
  return (
    <Card className="checkout-card" hidden={hidden}>
      <FormGroup label={intl.formatMessage({ id: 'checkout.card.number', defaultMessage: 'Card number' })} labelFor="card-number" {...field('payment.cardNumber')}>
        <InputGroup id="card-number" inputMode="numeric" autoComplete="cc-number" placeholder="4242 4242 4242 4242" value={card.number} onValueChange={(v) => set({ number: formatCardNumber(v) })} intent={field('payment.cardNumber').intent} leftIcon="credit-card" />
      </FormGroup>
      <div className="checkout-row">
        <FormGroup label={intl.formatMessage({ id: 'checkout.card.expiry', defaultMessage: 'Expiry' })} labelFor="card-expiry" {...field('payment.expiry')}>
          <InputGroup id="card-expiry" inputMode="numeric" autoComplete="cc-exp" placeholder={intl.formatMessage({ id: 'checkout.card.expiryFormat', defaultMessage: 'MM/YY' })} value={card.expiry} onValueChange={(v) => onChange((current) => ({ ...current, expiry: formatExpiry(v, current.expiry) }))} intent={field('payment.expiry').intent} />
        </FormGroup>
        <FormGroup label={intl.formatMessage({ id: 'checkout.card.cvc', defaultMessage: 'Security code' })} labelFor="card-cvc" {...field('payment.cvc')}>
          <InputGroup id="card-cvc" inputMode="numeric" autoComplete="cc-csc" placeholder="123" maxLength={4} value={card.cvc} onValueChange={(v) => set({ cvc: v.replace(/\D/g, '') })} intent={field('payment.cvc').intent} />
        </FormGroup>
      </div>
      <FormGroup label={intl.formatMessage({ id: 'checkout.card.holder', defaultMessage: 'Name on the card' })} labelFor="card-holder" labelInfo={intl.formatMessage({ id: 'checkout.card.optional', defaultMessage: '(optional)' })}>
        <InputGroup id="card-holder" autoComplete="cc-name" value={card.holder} onValueChange={(holder) => set({ holder })} />
      </FormGroup>
      {hint && <p className="muted checkout-hint">{hint}</p>}
    </Card>
  );
}
