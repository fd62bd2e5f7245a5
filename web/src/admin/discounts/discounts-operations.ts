import { graphql } from '../../apollo/generated';

/** What the Discounts view shows of a code (its table row and dialog). */
export const DiscountCodeFieldsFragment = graphql(`
  fragment DiscountCodeFields on DiscountCode {
    id
    code
    percentOff
    amountOff
    startsAt
    endsAt
    maxUses
    uses
  }
`);

export const DiscountCodesQuery = graphql(`
  query DiscountCodes {
    discountCodes {
      ...DiscountCodeFields
    }
  }
`);

export const CreateDiscountCodeMutation = graphql(`
  mutation CreateDiscountCode($input: DiscountCodeInput!) {
    createDiscountCode(input: $input) {
      ...DiscountCodeFields
    }
  }
`);

export const UpdateDiscountCodeMutation = graphql(`
  mutation UpdateDiscountCode($id: Int!, $input: DiscountCodeInput!) {
    updateDiscountCode(id: $id, input: $input) {
      ...DiscountCodeFields
    }
  }
`);

export const DeleteDiscountCodeMutation = graphql(`
  mutation DeleteDiscountCode($id: Int!) {
    deleteDiscountCode(id: $id)
  }
`);
