import { graphql } from '../../apollo/generated';

/** What a row of the endpoints table shows (never the secret: it is shown once, when created). */
export const WebhooksTableEndpointFragment = graphql(`
  fragment WebhooksTable_endpoint on WebhookEndpoint {
    id
    url
    events
    enabled
    disabledAt
    disabledReason
    createdBy
    createdAt
  }
`);

export const WebhookEndpointsQuery = graphql(`
  query WebhookEndpoints {
    webhookEndpoints {
      id
      ...WebhooksTable_endpoint
    }
  }
`);

export const CreateWebhookEndpointMutation = graphql(`
  mutation CreateWebhookEndpoint($input: WebhookEndpointInput!) {
    createWebhookEndpoint(input: $input) {
      secret
      endpoint {
        id
        ...WebhooksTable_endpoint
      }
    }
  }
`);

export const DeleteWebhookEndpointMutation = graphql(`
  mutation DeleteWebhookEndpoint($id: Int!) {
    deleteWebhookEndpoint(id: $id)
  }
`);

export const EnableWebhookEndpointMutation = graphql(`
  mutation EnableWebhookEndpoint($id: Int!) {
    enableWebhookEndpoint(id: $id) {
      id
      ...WebhooksTable_endpoint
    }
  }
`);

export const WebhookDeliveriesQuery = graphql(`
  query WebhookDeliveries($endpointId: Int!, $after: String) {
    webhookDeliveries(endpointId: $endpointId, first: 50, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          ...WebhookDeliveriesTable_delivery
        }
      }
    }
  }
`);

/** What a row of an endpoint's deliveries shows. */
export const WebhookDeliveriesTableDeliveryFragment = graphql(`
  fragment WebhookDeliveriesTable_delivery on WebhookDelivery {
    id
    eventId
    eventType
    status
    attempts
    lastStatusCode
    lastError
    lastAttemptAt
    nextAttemptAt
    createdAt
  }
`);

export const RedeliverWebhookMutation = graphql(`
  mutation RedeliverWebhook($deliveryId: Int!) {
    redeliverWebhook(deliveryId: $deliveryId) {
      id
      ...WebhookDeliveriesTable_delivery
    }
  }
`);
