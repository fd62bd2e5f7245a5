import { graphql } from '../../apollo/generated';

export const AdminOrdersQuery = graphql(`
  query AdminOrders($search: String, $status: OrderStatus, $from: String, $to: String, $failedEmail: Boolean, $group: Boolean, $first: Int, $after: String) {
    orders(search: $search, status: $status, from: $from, to: $to, failedEmail: $failedEmail, group: $group, first: $first, after: $after) {
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
      giftCardAmount
      giftCardLast4
      chargedAmount
      paymentProvider
      discountCode
      discountName
      discountAmount
      refundedAt
      refundedAmount
      refundReason
      notes {
        id
        text
        author
        createdAt
      }
      timeline {
        at
        kind
        text
      }
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
        message
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

export const AddOrderNoteMutation = graphql(`
  mutation AddOrderNote($orderId: ID!, $text: String!) {
    addOrderNote(orderId: $orderId, text: $text) {
      id
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
