import { graphql } from '../../apollo/generated';

export const ConfirmationOrderQuery = graphql(`
  query ConfirmationOrder($id: ID!) {
    order(id: $id) {
      id
      purchaserEmail
      status
      total
      discountCode
      discountName
      discountAmount
      createdAt
      cardLast4
      giftCardAmount
      giftCardLast4
      chargedAmount
      items {
        id
        name
        price
        compareAtPrice
        quantity
        lineTotal
        ecardPath
        recipientName
        recipientEmail
        deliverAt
        deliveredAt
        groupCard {
          ...GroupCardPanel_groupCard
        }
      }
    }
  }
`);
