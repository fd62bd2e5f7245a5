import { graphql } from '../../apollo/generated';

/** What a row of the endpoints table shows (never the secret: it is shown once, when created). */
export const WebhookEndpointRowFragment = graphql(`
  fragment WebhookEndpointRow_endpoint on WebhookEndpoint {
    id
    url
    events
    createdBy
    createdAt
    enabled
    disabledAt
    disabledReason
  }
`);

export const WebhookEndpointsQuery = graphql(`
  query WebhookEndpoints {
    webhookEndpoints {
      id
      ...WebhookEndpointRow_endpoint
    }
  }
`);

export const WebhookDeliveriesQuery = graphql(`
  query WebhookDeliveries($endpointId: Int!, $first: Int, $after: String) {
    webhookDeliveries(endpointId: $endpointId, first: $first, after: $after) {
      edges {
        node {
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
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

export const CreateWebhookEndpointMutation = graphql(`
  mutation CreateWebhookEndpoint($input: WebhookEndpointInput!) {
    createWebhookEndpoint(input: $input) {
      secret
      endpoint {
        id
        ...WebhookEndpointRow_endpoint
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
      ...WebhookEndpointRow_endpoint
    }
  }
`);

export const RedeliverWebhookMutation = graphql(`
  mutation RedeliverWebhook($deliveryId: Int!) {
    redeliverWebhook(deliveryId: $deliveryId) {
      id
      status
      attempts
      nextAttemptAt
    }
  }
`);
