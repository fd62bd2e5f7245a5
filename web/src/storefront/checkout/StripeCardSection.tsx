import { forwardRef, useImperativeHandle, useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { FormGroup } from '@blueprintjs/core';
import { loadStripe } from '@stripe/stripe-js';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { graphql } from '../../apollo/generated';
import { useTheme } from '../../common/theme';

export const OrderPaidQuery = graphql(`
  query OrderPaid($id: ID!) {
    order(id: $id) {
      id
      status
    }
  }
`);

export interface StripeCardHandle {
  /**
   * Confirms the order's PaymentIntent with the card typed into Stripe's element, then waits (up to
   * half a minute) for the shop to hear from Stripe that it is paid. An error is Stripe's reason.
   */
  confirm(clientSecret: string, orderId: string, email: string): Promise<{ error?: string }>;
}

const CardForm = forwardRef<StripeCardHandle>(function CardForm(_props, ref) {
  const stripe = useStripe();
  const elements = useElements();
  const client = useApolloClient();
  const [theme] = useTheme();
  const [problem, setProblem] = useState<string | null>(null);

  useImperativeHandle(ref, () => ({
    async confirm(clientSecret, orderId, email) {
      const card = elements?.getElement(CardElement);
      if (!stripe || !card) return { error: 'The card form is still loading; please try again in a moment.' };
      const result = await stripe.confirmCardPayment(clientSecret, { payment_method: { card, billing_details: { email } } });
      if (result.error) return { error: result.error.message ?? 'Your card was declined.' };
      // Stripe tells the shop through its signed webhook; the order is paid once it has.
      for (let waited = 0; waited < 30_000; waited += 1000) {
        const { data } = await client.query({ query: OrderPaidQuery, variables: { id: orderId }, fetchPolicy: 'network-only' });
        if (data?.order.status !== 'PENDING') break;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      return {};
    },
  }));

  const dark = theme === 'dark';
  return (
    <FormGroup label="Card" helperText={problem ?? 'Your card goes straight to Stripe; the shop never sees its number.'} intent={problem ? 'danger' : 'none'}>
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

/** Stripe's card element, loaded only when the shop takes payments through Stripe. */
const StripeCardSection = forwardRef<StripeCardHandle, { publishableKey: string }>(function StripeCardSection({ publishableKey }, ref) {
  const [stripe] = useState(() => loadStripe(publishableKey));
  return (
    <Elements stripe={stripe}>
      <CardForm ref={ref} />
    </Elements>
  );
});

export default StripeCardSection;
