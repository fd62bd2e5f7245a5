import { graphql } from '../../apollo/generated';

/** A gift card as its page shows it to whoever holds its code: the design, the giver, the message and what is left. */
export const GiftCardPageQuery = graphql(`
  query GiftCardPage($code: String!) {
    giftCardBalance(code: $code) {
      balance
      initialAmount
      currency
      status
      last4
      designPath
      senderName
      recipientName
      message
    }
  }
`);
