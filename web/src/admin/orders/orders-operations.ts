import { graphql } from '../../apollo/generated';

export const AdminOrdersQuery = graphql(`
  query AdminOrders($search: String, $first: Int, $after: String) {
    orders(search: $search, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          number
          purchaserEmail
          status
          total
          createdAt
        }
      }
    }
  }
`);

export const AdminOrderQuery = graphql(`
  query AdminOrder($id: ID!) {
    order(id: $id) {
      id
      purchaserEmail
      status
      total
      createdAt
      cardLast4
      paymentProvider
      discountCode
      discountAmount
      refundedAt
      refundedAmount
      items {
        id
        name
        price
        quantity
        lineTotal
        itemUrlUuid
        ecardPath
        recipientName
        recipientEmail
        senderName
        deliverAt
        deliveredAt
        openedAt
        remindedAt
        refundedAt
        notDeliveredReason
      }
      emails {
        id
        kind
        status
        attempts
        lastError
        dueAt
        sentAt
      }
    }
  }
`);

export const ResendCardEmailMutation = graphql(`
  mutation ResendCardEmail($itemId: Int!) {
    resendCardEmail(itemId: $itemId) {
      id
    }
  }
`);

export const ResendReceiptMutation = graphql(`
  mutation ResendReceipt($orderId: ID!) {
    resendReceipt(orderId: $orderId) {
      id
    }
  }
`);

export const RetryEmailMutation = graphql(`
  mutation RetryEmail($id: Int!) {
    retryEmail(id: $id) {
      id
      status
      dueAt
    }
  }
`);
