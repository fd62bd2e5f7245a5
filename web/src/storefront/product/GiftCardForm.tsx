import { useState, type FormEvent } from 'react';
import { Button, ButtonGroup, FormGroup, InputGroup } from '@blueprintjs/core';
import { GIFT_CARD_AMOUNTS, GIFT_CARD_MAX_AMOUNT, GIFT_CARD_MIN_AMOUNT } from '@rules';
import { useIntl } from 'react-intl';
import type { GiftCardChoice } from '../cart/cart-lines';
import { pageIntl } from '../../i18n/page-intl';
import { formatPrice, formatWholePrice } from '../common/price';
import { giftRecipientErrors, GiftRecipientFields, trimmedRecipient } from './GiftRecipientFields';

type Errors = Partial<Record<keyof GiftCardChoice, string>>;

/** An amount as typed ("50", "$25.5") as the shop keeps it ("25.50"), or null when it is not one. */
export function giftCardAmount(text: string): string | null {
  const value = text.trim().replace(/^\$/, '');
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(value)) return null;
  const amount = Number(value);
  return amount >= GIFT_CARD_MIN_AMOUNT && amount <= GIFT_CARD_MAX_AMOUNT ? amount.toFixed(2) : null;
}

/** The form's problems by field (the rules are the server's: 10 to 500, one-line names, an address). */
export function giftCardErrors(choice: GiftCardChoice): Errors {
  const errors: Errors = giftRecipientErrors(choice);
  if (!giftCardAmount(choice.amount)) return { amount: pageIntl().formatMessage({ id: 'product.giftCard.amountError', defaultMessage: 'Choose an amount from {min} to {max}.' }, { min: `$${GIFT_CARD_MIN_AMOUNT}`, max: `$${GIFT_CARD_MAX_AMOUNT}` }), ...errors };
  return errors;
}

export const emptyGiftCard = (senderName = ''): GiftCardChoice => ({ amount: '50.00', recipientName: '', recipientEmail: '', senderName, message: '' });

/** A gift card's amount (a few to pick, or any from 10 to 500), its recipient, the sender and a message. */
export function GiftCardForm({ onAdd }: { onAdd: (choice: GiftCardChoice) => void }) {
  const [choice, setChoice] = useState<GiftCardChoice>(() => emptyGiftCard());
  // What the amount field shows while it is typed (it becomes the choice once it is one).
  const [typed, setTyped] = useState('50');
  const [errors, setErrors] = useState<Errors>({});
  const [tried, setTried] = useState(false);
  const intl = useIntl();

  const change = (patch: Partial<GiftCardChoice>) => {
    const next = { ...choice, ...patch };
    setChoice(next);
    if (tried) setErrors(giftCardErrors(next));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    const found = giftCardErrors(choice);
    setErrors(found);
    if (Object.keys(found).length) {
      document.querySelector<HTMLElement>(`#gift-card-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    onAdd({ ...trimmedRecipient(choice), amount: giftCardAmount(choice.amount)! });
    setChoice(emptyGiftCard(choice.senderName.trim()));
    setTyped('50');
    setTried(false);
  };
  const field = (key: keyof GiftCardChoice) => ({ intent: errors[key] ? ('danger' as const) : ('none' as const), helperText: errors[key] });
  const amount = giftCardAmount(choice.amount);

  return (
    <form className="gift-card-form" onSubmit={submit} noValidate>
      <FormGroup label={intl.formatMessage({ id: 'product.giftCard.amount', defaultMessage: 'Amount' })} labelFor="gift-card-amount" {...field('amount')}>
        <ButtonGroup className="gift-card-amounts" aria-label={intl.formatMessage({ id: 'product.giftCard.amounts', defaultMessage: 'Amounts' })}>
          {GIFT_CARD_AMOUNTS.map((preset) => (
            <Button
              key={preset}
              text={formatWholePrice(preset)}
              active={amount === preset.toFixed(2)}
              aria-pressed={amount === preset.toFixed(2)}
              onClick={() => {
                setTyped(String(preset));
                change({ amount: preset.toFixed(2) });
              }}
            />
          ))}
        </ButtonGroup>
        <InputGroup
          id="gift-card-amount"
          className="gift-card-amount-input"
          leftIcon="dollar"
          inputMode="decimal"
          aria-label={intl.formatMessage({ id: 'product.giftCard.otherAmount', defaultMessage: 'Another amount, {min} to {max}' }, { min: `$${GIFT_CARD_MIN_AMOUNT}`, max: `$${GIFT_CARD_MAX_AMOUNT}` })}
          placeholder={`${GIFT_CARD_MIN_AMOUNT}–${GIFT_CARD_MAX_AMOUNT}`}
          value={typed}
          intent={errors.amount ? 'danger' : 'none'}
          onValueChange={(text) => {
            setTyped(text);
            change({ amount: text });
          }}
        />
      </FormGroup>
      <GiftRecipientFields idPrefix="gift-card" value={choice} errors={errors} onChange={change} emailHelp={intl.formatMessage({ id: 'product.giftCard.emailHelp', defaultMessage: 'The gift card and its code are e-mailed here as soon as your order is paid.' })} />
      <Button type="submit" intent="primary" size="large" icon="shopping-cart" text={amount ? intl.formatMessage({ id: 'product.addToCartPriced', defaultMessage: 'Add to cart · {price}' }, { price: formatPrice(amount) }) : intl.formatMessage({ id: 'product.addToCart', defaultMessage: 'Add to cart' })} />
    </form>
  );
}
