import { forwardRef, useImperativeHandle, useState } from 'react';
import { useIntl } from 'react-intl';
import { FormGroup } from '@blueprintjs/core';
import { loadStripe } from '@stripe/stripe-js';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { useTheme } from '../../common/theme';
import { pageLocale } from '../../i18n/page-intl';
import './stripe-card.css';

export interface StripeCardHandle {
  /**
   * Confirms a payment (an order's PaymentIntent, a membership's first invoice) with the card typed
   * into Stripe's element, then waits, up to half a minute, until `settled` says the shop has heard
   * from Stripe (its signed webhook). An error is Stripe's reason; `settled` false: it has not yet.
   */
  confirm(clientSecret: string, payment: { email: string | null; settled: () => Promise<boolean> }): Promise<{ error?: string; settled?: boolean }>;
}

/** How long the page waits for the shop to hear from Stripe, and how often it asks. */
const SETTLE_MS = 30_000;
const ASK_EVERY_MS = 1000;

const CardForm = forwardRef<StripeCardHandle>(function CardForm(_props, ref) {
  const stripe = useStripe();
  const elements = useElements();
  const [theme] = useTheme();
  const intl = useIntl();
  const [problem, setProblem] = useState<string | null>(null);

  useImperativeHandle(ref, () => ({
    async confirm(clientSecret, { email, settled }) {
      const card = elements?.getElement(CardElement);
      if (!stripe || !card) return { error: intl.formatMessage({ id: 'checkout.stripe.loading', defaultMessage: 'The card form is still loading; please try again in a moment.' }) };
      const result = await stripe.confirmCardPayment(clientSecret, { payment_method: { card, billing_details: email ? { email } : {} } });
      if (result.error) return { error: result.error.message ?? intl.formatMessage({ id: 'checkout.stripe.declined', defaultMessage: 'Your card was declined.' }) };
      // Stripe tells the shop through its signed webhook; the payment counts once it has.
      for (let waited = 0; waited < SETTLE_MS; waited += ASK_EVERY_MS) {
        if (await settled()) return { settled: true };
        await new Promise((resolve) => setTimeout(resolve, ASK_EVERY_MS));
      }
      return { settled: false };
    },
  }));

  const dark = theme === 'dark';
  return (
    <FormGroup
      label={intl.formatMessage({ id: 'checkout.stripe.label', defaultMessage: 'Card' })}
      helperText={problem ?? intl.formatMessage({ id: 'checkout.stripe.help', defaultMessage: 'Your card goes straight to Stripe; the shop never sees its number.' })}
      intent={problem ? 'danger' : 'none'}
    >
      <div className="checkout-stripe-card">
        <CardElement
          onChange={(event) => setProblem(event.error?.message ?? null)}
          options={{
            hidePostalCode: true,
            style: {
              base: { color: dark ? '#f6f7f9' : '#1c2127', fontSize: '15px', fontFamily: 'system-ui, sans-serif', '::placeholder': { color: dark ? '#8f99a8' : '#738091' } },
              invalid: { color: dark ? '#fa999c' : '#ac2f33' },
            },
          }}
        />
      </div>
    </FormGroup>
  );
});

/** Stripe's card element, loaded only when the shop takes payments through Stripe (the checkout's and the membership page's). */
const StripeCardSection = forwardRef<StripeCardHandle, { publishableKey: string }>(function StripeCardSection({ publishableKey }, ref) {
  const [stripe] = useState(() => loadStripe(publishableKey));
  return (
    <Elements stripe={stripe} options={{ locale: pageLocale() }}>
      <CardForm ref={ref} />
    </Elements>
  );
});

export default StripeCardSection;
