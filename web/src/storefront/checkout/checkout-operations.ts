import { graphql } from '../../apollo/generated';

export const PlaceOrderMutation = graphql(`
  mutation PlaceOrder($input: PlaceOrderInput!) {
    placeOrder(input: $input) {
      id
      status
      total
      paymentClientSecret
    }
  }
`);

/** Whether a Stripe payment confirmed in the browser has reached the shop (its webhook settles the order). */
export const OrderPaidQuery = graphql(`
  query OrderPaid($id: ID!) {
    order(id: $id) {
      id
      status
    }
  }
`);

export const PaymentSetupQuery = graphql(`
  query PaymentSetup {
    paymentSetup {
      available
      provider
      publishableKey
    }
  }
`);

/** A gift card typed at checkout: what it holds now (a look-up, counted against the visitor's hourly allowance). */
export const CheckoutGiftCardQuery = graphql(`
  query CheckoutGiftCard($code: String!) {
    giftCardBalance(code: $code) {
      balance
      last4
    }
  }
`);
