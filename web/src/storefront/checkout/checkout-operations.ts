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

export const PaymentSetupQuery = graphql(`
  query PaymentSetup {
    paymentSetup {
      available
      provider
      publishableKey
    }
  }
`);
