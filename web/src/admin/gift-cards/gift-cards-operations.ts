import { graphql } from '../../apollo/generated';

/** What a row of the gift cards table shows. */
export const GiftCardsTableGiftCardFragment = graphql(`
  fragment GiftCardsTable_giftCard on GiftCard {
    id
    last4
    balance
    initialAmount
    currency
    status
    source
    reason
    recipientEmail
    createdAt
  }
`);

/**
 * What the ledger dialog shows of a card: its facts and every change of its balance. The entries are
 * read as the card's own list, append-only and oldest first (not by their ids).
 */
export const GiftCardLedgerGiftCardFragment = graphql(`
  fragment GiftCardLedger_giftCard on GiftCard {
    ...GiftCardsTable_giftCard
    orderId
    expiresAt
    entries {
      kind
      amount
      balanceAfter
      orderId
      reason
      actor
      createdAt
    }
  }
`);

export const GiftCardsQuery = graphql(`
  query GiftCards($search: String, $offset: Int, $first: Int) {
    giftCards(search: $search, offset: $offset, first: $first) {
      totalCount
      outstanding
      items {
        ...GiftCardsTable_giftCard
      }
    }
  }
`);

export const GiftCardQuery = graphql(`
  query GiftCard($id: Int!) {
    giftCard(id: $id) {
      ...GiftCardLedger_giftCard
    }
  }
`);

export const IssueGiftCardMutation = graphql(`
  mutation IssueGiftCard($amount: Decimal!, $reason: String!) {
    issueGiftCard(amount: $amount, reason: $reason) {
      code
      giftCard {
        ...GiftCardsTable_giftCard
      }
    }
  }
`);

export const AdjustGiftCardMutation = graphql(`
  mutation AdjustGiftCard($id: Int!, $amount: Decimal!, $reason: String!) {
    adjustGiftCard(id: $id, amount: $amount, reason: $reason) {
      ...GiftCardLedger_giftCard
    }
  }
`);

export const VoidGiftCardMutation = graphql(`
  mutation VoidGiftCard($id: Int!, $reason: String!) {
    voidGiftCard(id: $id, reason: $reason) {
      ...GiftCardLedger_giftCard
    }
  }
`);
