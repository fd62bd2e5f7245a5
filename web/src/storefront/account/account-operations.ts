import { graphql } from '../../apollo/generated';

export const MyOrdersQuery = graphql(`
  query MyOrders($first: Int, $after: String) {
    myOrders(first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          status
          total
          giftCardAmount
          giftCardLast4
          chargedAmount
          createdAt
          items {
            id
            name
            quantity
            lineTotal
            ecardPath
            recipientName
            recipientEmail
            deliverAt
            deliveredAt
            openedAt
            refundedAt
            notDeliveredReason
            resendsLeft
            replies {
              id
              name
              message
              createdAt
            }
            groupCard {
              signatureCount
              ...GroupCardPanel_groupCard
            }
          }
        }
      }
    }
  }
`);

export const ChangeCardDateMutation = graphql(`
  mutation ChangeCardDate($itemId: Int!, $deliveryDate: String, $deliveryTime: String) {
    changeCardDate(itemId: $itemId, deliveryDate: $deliveryDate, deliveryTime: $deliveryTime) {
      id
      deliverAt
      deliveredAt
    }
  }
`);

export const ResendMyCardMutation = graphql(`
  mutation ResendMyCard($itemId: Int!) {
    resendMyCard(itemId: $itemId) {
      id
      deliveredAt
      resendsLeft
    }
  }
`);

/** The shopper's membership in a few words for My orders (its page has the rest). */
export const AccountMembershipQuery = graphql(`
  query AccountMembership {
    myMembership {
      id
      status
      currentPeriodEnd
      cancelAtPeriodEnd
      gift
      pastDueSince
      endedAt
      plan {
        id
        name
        price
        period
      }
    }
  }
`);
