import { graphql } from '../../apollo/generated';

export const GroupCardPanelFragment = graphql(`
  fragment GroupCardPanel_groupCard on GroupCardDetails {
    signingToken
    signingPath
    collectUntil
    latestCollectUntil
    status
    signatureCount
    maxSignatures
    maxInvitations
    signatures {
      id
      name
      message
      createdAt
    }
    invitations {
      id
      email
      invitedAt
      signedAt
      remindedAt
    }
  }
`);

export const InviteSignersMutation = graphql(`
  mutation InviteSigners($orderId: ID!, $itemId: Int!, $emails: [String!]!) {
    inviteSigners(orderId: $orderId, itemId: $itemId, emails: $emails) {
      invited
      alreadyInvited
      groupCard {
        ...GroupCardPanel_groupCard
      }
    }
  }
`);

export const ExtendSigningDeadlineMutation = graphql(`
  mutation ExtendSigningDeadline($orderId: ID!, $itemId: Int!, $collectUntil: String!) {
    extendSigningDeadline(orderId: $orderId, itemId: $itemId, collectUntil: $collectUntil) {
      ...GroupCardPanel_groupCard
    }
  }
`);

export const RemoveGroupCardSignatureMutation = graphql(`
  mutation RemoveGroupCardSignature($orderId: ID!, $signatureId: Int!) {
    removeGroupCardSignature(orderId: $orderId, signatureId: $signatureId) {
      ...GroupCardPanel_groupCard
    }
  }
`);
