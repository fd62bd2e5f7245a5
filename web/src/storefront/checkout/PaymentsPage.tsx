import { lazy, Suspense, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { FormattedMessage, useIntl } from 'react-intl';
import { useApolloClient, useMutation, useQuery } from '@apollo/client/react';
import { Button, Callout, Checkbox, FormGroup, InputGroup, Spinner } from '@blueprintjs/core';
import { errorCode, errorField } from '../../apollo/errors';
import { useErrorText } from '../../i18n/input-messages';
import { useAuth } from '../../auth/auth-store';
import { formatPrice, giftCardSplit } from '../common/price';
import { toLineInputs } from '../cart/cart-lines';
import { cart } from '../cart/cart-store';
import { useCartQuote } from '../cart/use-cart-quote';
import { CARD_FIELDS, NO_CARD, cardPayment, cardProblems, checkoutKey, type CardField } from './card-input';
import { CardFields } from './CardFields';
import { OrderPaidQuery, PaymentSetupQuery, PlaceOrderMutation } from './checkout-operations';
import { CheckoutSummary } from './CheckoutSummary';
import { DiscountCodeField } from './DiscountCodeField';
import { GiftCardField, useGiftCardLookup, type AppliedGiftCard } from './GiftCardField';
import type { StripeCardHandle } from './StripeCardSection';

/** Stripe's card element (and Stripe.js) load only when the shop takes payments through Stripe. */
const StripeCardSection = lazy(() => import('./StripeCardSection'));
import { isEmail } from '@rules';
import '../common/storefront.css';
import './checkout.css';
import { EmptyState } from '../../common/EmptyState';
import { pageLocale } from '../../i18n/page-intl';

type Field = 'purchaserEmail' | CardField;

/** /payments: the purchaser's e-mail and card; the shop prices the cart and takes the payment once. */
export default function PaymentsPage() {
  const navigate = useNavigate();
  const intl = useIntl();
  const errorText = useErrorText();
  const auth = useAuth();
  const [discountCode, setDiscountCode] = useState<string | null>(null);
  const [discountProblem, setDiscountProblem] = useState<string | null>(null);
  const [giftCard, setGiftCard] = useState<AppliedGiftCard | null>(null);
  const [giftCardProblem, setGiftCardProblem] = useState<string | null>(null);
  const { lines, quote, priced, error: quoteError } = useCartQuote(discountCode);
  const lookUpGiftCard = useGiftCardLookup();
  const [email, setEmail] = useState(auth.user?.email ?? '');
  const [card, setCard] = useState(NO_CARD);
  const [notifyOpened, setNotifyOpened] = useState(true);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<{ title: string; message: string; cart?: boolean } | null>(null);
  const [placeOrder, { loading }] = useMutation(PlaceOrderMutation);
  const client = useApolloClient();
  const { data: setup } = useQuery(PaymentSetupQuery, { fetchPolicy: 'cache-and-network' });
  const paymentsOff = setup?.paymentSetup.available === false;
  const testProvider = setup?.paymentSetup.provider === 'test';
  const stripeKey = setup?.paymentSetup.provider === 'stripe' ? setup.paymentSetup.publishableKey : null;
  const stripeCard = useRef<StripeCardHandle>(null);
  const submitting = useRef(false);
  const split = quote && giftCard ? giftCardSplit(quote.total, giftCard.card.balance) : null;
  // The gift card pays everything: no card is asked for.
  const covered = split !== null && Number(split.card) === 0;

  if (lines.length === 0) {
    return (
      <div className="store-page">
        <EmptyState
          level={1}
          className="store-state"
          icon="shopping-cart"
          title={intl.formatMessage({ id: 'cart.empty.title', defaultMessage: 'Your cart is empty' })}
          action={
            <Link to="/shop">
              <FormattedMessage id="cart.empty.browse" defaultMessage="Browse the shop" />
            </Link>
          }
        />
      </div>
    );
  }

  const pay = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting.current || !quote) return;
    const typedCard = !stripeKey && !covered;
    const found: Partial<Record<Field, string>> = typedCard ? cardProblems(card) : {};
    if (!isEmail(email)) found.purchaserEmail = intl.formatMessage({ id: 'checkout.email.missing', defaultMessage: 'Enter your e-mail address for the receipt.' });
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length) return;

    const input = { purchaserEmail: email.trim(), lines: toLineInputs(lines), discountCode, giftCardCode: giftCard?.code ?? null };
    const idempotencyKey = checkoutKey(sessionStorage, JSON.stringify(input));
    submitting.current = true;
    try {
      const payment = stripeKey || covered ? null : cardPayment(card);
      const { data } = await placeOrder({ variables: { input: { ...input, idempotencyKey, payment, notifyWhenOpened: notifyOpened, locale: pageLocale() } } });
      const secret = data?.placeOrder.status === 'PENDING' ? data.placeOrder.paymentClientSecret : null;
      if (data && secret) {
        // Stripe: the card element confirms the payment; a decline keeps the checkout (and its intent) for another card.
        const orderId = data.placeOrder.id;
        const paid = async () => (await client.query({ query: OrderPaidQuery, variables: { id: orderId }, fetchPolicy: 'network-only' })).data?.order.status !== 'PENDING';
        const result = stripeCard.current ? await stripeCard.current.confirm(secret, { email: input.purchaserEmail, settled: paid }) : { error: intl.formatMessage({ id: 'checkout.cardLoading', defaultMessage: 'The card form is still loading.' }) };
        if (result.error) {
          setFailure({ title: intl.formatMessage({ id: 'checkout.failure.declined', defaultMessage: 'Payment declined' }), message: result.error });
          return;
        }
      }
      if (data) {
        cart.clear();
        sessionStorage.removeItem('checkout');
        // The confirmation page shows the address masked (its link may be shared); the account offer there starts from it whole.
        navigate(`/order-confirmation/${data.placeOrder.id}`, { replace: true, state: { purchaserEmail: input.purchaserEmail } });
      }
    } catch (error) {
      const [code, field, message] = [errorCode(error), errorField(error), errorText(error, intl.formatMessage({ id: 'checkout.failure.tryAgain', defaultMessage: 'Please try again.' }))];
      if (code === 'PAYMENT_DECLINED') {
        // A declined attempt is finished: the next one (another card) is a new checkout with a new key.
        sessionStorage.removeItem('checkout');
        setFailure({ title: intl.formatMessage({ id: 'checkout.failure.declined', defaultMessage: 'Payment declined' }), message });
      } else if (code === 'PAYMENT_FAILED') {
        // The shop dropped this checkout (the payment service could not be asked): the next try is a new one.
        sessionStorage.removeItem('checkout');
        setFailure({ title: intl.formatMessage({ id: 'checkout.failure.notThrough', defaultMessage: 'The payment did not go through' }), message });
      } else if (code === 'PAYMENTS_UNAVAILABLE') setFailure({ title: intl.formatMessage({ id: 'checkout.paymentsOff.title', defaultMessage: 'Payments are not set up' }), message });
      else if (code === 'RATE_LIMITED') setFailure({ title: intl.formatMessage({ id: 'checkout.failure.tooMany', defaultMessage: 'Too many attempts' }), message });
      else if (code === 'RECIPIENT_UNSUBSCRIBED') setFailure({ title: intl.formatMessage({ id: 'checkout.failure.unsubscribed', defaultMessage: 'A recipient does not accept cards' }), message, cart: true });
      else if (field && (field === 'purchaserEmail' || CARD_FIELDS.includes(field))) setErrors({ [field as Field]: message });
      else if (field === 'discountCode') {
        setDiscountCode(null);
        setDiscountProblem(message);
      } else if (field === 'giftCardCode') {
        setGiftCard(null);
        setGiftCardProblem(message);
      } else if (field === 'payment' && giftCard) {
        // The card holds less than when it was applied (spent elsewhere meanwhile): its balance now, and the card fields for the rest.
        const found = await lookUpGiftCard(giftCard.code);
        setGiftCard('card' in found && Number(found.card.balance) > 0 ? { ...giftCard, card: found.card } : null);
        setFailure({ title: intl.formatMessage({ id: 'checkout.failure.giftCardShort', defaultMessage: 'Your gift card does not pay everything' }), message });
      } else if (field?.startsWith('lines')) setFailure({ title: intl.formatMessage({ id: 'checkout.failure.cart', defaultMessage: 'Your cart needs a look' }), message, cart: true });
      else setFailure({ title: intl.formatMessage({ id: 'checkout.failure.notThrough', defaultMessage: 'The payment did not go through' }), message });
    } finally {
      submitting.current = false;
    }
  };

  const field = (name: Field) => ({ intent: errors[name] ? ('danger' as const) : ('none' as const), helperText: errors[name] });

  return (
    <div className="store-page checkout-page">
      <h1>
        <FormattedMessage id="checkout.title" defaultMessage="Checkout" />
      </h1>
      <div className="checkout-layout">
        <form className="checkout-form" onSubmit={pay} noValidate aria-label={intl.formatMessage({ id: 'checkout.form', defaultMessage: 'Payment' })}>
          {paymentsOff && (
            <Callout intent="warning" icon="disable" title={intl.formatMessage({ id: 'checkout.paymentsOff.title', defaultMessage: 'Payments are not set up' })} className="checkout-unavailable" role="status">
              <FormattedMessage id="checkout.paymentsOff.text" defaultMessage="This shop cannot take payments yet, so orders cannot be placed. Your cart is kept: please come back later." />
            </Callout>
          )}
          <FormGroup
            label={intl.formatMessage({ id: 'checkout.email.label', defaultMessage: 'Your e-mail' })}
            labelFor="purchaser-email"
            helperText={errors.purchaserEmail ?? intl.formatMessage({ id: 'checkout.email.help', defaultMessage: 'Your receipt and the card links go here.' })}
            intent={field('purchaserEmail').intent}
          >
            <InputGroup id="purchaser-email" type="email" autoComplete="email" value={email} onValueChange={setEmail} intent={field('purchaserEmail').intent} />
          </FormGroup>
          <DiscountCodeField lines={lines} applied={discountCode} onApplied={setDiscountCode} problem={discountProblem} onProblem={setDiscountProblem} />
          <GiftCardField applied={giftCard} pays={split?.giftCard ?? null} onApplied={setGiftCard} problem={giftCardProblem} onProblem={setGiftCardProblem} />
          {covered && (
            <Callout intent="success" icon="credit-card" role="status">
              <FormattedMessage id="checkout.giftCardCovers" defaultMessage="Your gift card pays the whole order: no card is needed." />
            </Callout>
          )}
          {stripeKey && (
            // Hidden, not removed, while a gift card pays everything: a card typed in stays if it is removed again.
            <div hidden={covered}>
              <Suspense fallback={<Spinner size={20} />}>
                <StripeCardSection ref={stripeCard} publishableKey={stripeKey} />
              </Suspense>
            </div>
          )}
          <CardFields card={card} onChange={setCard} problems={errors} hidden={Boolean(stripeKey) || covered} hint={testProvider ? intl.formatMessage({ id: 'checkout.testHint', defaultMessage: 'This shop takes test payments: pay with 4242 4242 4242 4242, any future expiry and any code.' }) : null} />
          {lines.some((line) => line.personalisation) && (
            <Checkbox className="checkout-notify" checked={notifyOpened} onChange={(event) => setNotifyOpened(event.currentTarget.checked)} label={intl.formatMessage({ id: 'checkout.notifyOpened', defaultMessage: 'Tell me when my card is opened' })} />
          )}
          {failure && (
            <Callout intent="danger" title={failure.title} className="checkout-failure" role="alert">
              {failure.message}
              {failure.cart && (
                <p>
                  <Link to="/cart">
                    <FormattedMessage id="checkout.reviewCart" defaultMessage="Review your cart" />
                  </Link>
                </p>
              )}
            </Callout>
          )}
          <Button type="submit" intent="primary" size="large" fill icon="lock" loading={loading} disabled={!quote || loading || paymentsOff} text={
              !quote
                ? intl.formatMessage({ id: 'checkout.pay', defaultMessage: 'Pay' })
                : covered
                  ? intl.formatMessage({ id: 'checkout.placeOrder', defaultMessage: 'Place order' })
                  : intl.formatMessage({ id: 'checkout.payAmount', defaultMessage: 'Pay {amount}' }, { amount: formatPrice(split?.card ?? quote.total) })
            }
          />
        </form>
        <CheckoutSummary quote={quote} priced={priced} quoteError={quoteError} discountCode={discountCode} giftCard={giftCard} split={split} />
      </div>
    </div>
  );
}
