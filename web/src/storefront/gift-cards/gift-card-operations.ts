import { useCallback } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { errorMessage } from '../../apollo/errors';
import { graphql } from '../../apollo/generated';
import type { GiftCardBalanceQuery as GiftCardBalanceData } from '../../apollo/generated/graphql';

export const GiftCardBalanceQuery = graphql(`
  query GiftCardBalance($code: String!) {
    giftCardBalance(code: $code) {
      balance
      currency
      expiresAt
      last4
    }
  }
`);

export type GiftCardBalance = GiftCardBalanceData['giftCardBalance'];

/**
 * Looks a code up, always at the shop (each look-up counts against the visitor's hourly allowance):
 * the card's balance, or the shop's reason it has none to give (an unknown code, too many look-ups).
 */
export function useGiftCardLookup(): (code: string) => Promise<{ card: GiftCardBalance } | { problem: string }> {
  const client = useApolloClient();
  return useCallback(
    async (code) => {
      try {
        const { data } = await client.query({ query: GiftCardBalanceQuery, variables: { code }, fetchPolicy: 'network-only' });
        return data ? { card: data.giftCardBalance } : { problem: 'The balance could not be read. Please try again.' };
      } catch (error) {
        return { problem: errorMessage(error, 'The balance could not be read. Please try again.') };
      }
    },
    [client],
  );
}
