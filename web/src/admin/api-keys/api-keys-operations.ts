import { graphql } from '../../apollo/generated';

/** What a row of the API keys table shows (never the key: only its last four characters). */
export const ApiKeysTableApiKeyFragment = graphql(`
  fragment ApiKeysTable_apiKey on ApiKey {
    id
    name
    scopes
    last4
    createdBy
    createdAt
    lastUsedAt
    revokedAt
  }
`);

export const ApiKeysQuery = graphql(`
  query ApiKeys {
    apiKeys {
      id
      ...ApiKeysTable_apiKey
    }
  }
`);

export const CreateApiKeyMutation = graphql(`
  mutation CreateApiKey($input: ApiKeyInput!) {
    createApiKey(input: $input) {
      key
      apiKey {
        id
        ...ApiKeysTable_apiKey
      }
    }
  }
`);

export const RevokeApiKeyMutation = graphql(`
  mutation RevokeApiKey($id: Int!) {
    revokeApiKey(id: $id) {
      id
      ...ApiKeysTable_apiKey
    }
  }
`);
