import { graphql } from '../../apollo/generated';

export const DiscountCodesQuery = graphql(`
  query DiscountCodes {
    discountCodes {
      id
      code
      percentOff
      amountOff
      startsAt
      endsAt
      maxUses
      uses
    }
  }
`);

export const CreateDiscountCodeMutation = graphql(`
  mutation CreateDiscountCode($input: DiscountCodeInput!) {
    createDiscountCode(input: $input) {
      id
      code
      percentOff
      amountOff
      startsAt
      endsAt
      maxUses
      uses
    }
  }
`);

export const UpdateDiscountCodeMutation = graphql(`
  mutation UpdateDiscountCode($id: Int!, $input: DiscountCodeInput!) {
    updateDiscountCode(id: $id, input: $input) {
      id
      code
      percentOff
      amountOff
      startsAt
      endsAt
      maxUses
      uses
    }
  }
`);

export const DeleteDiscountCodeMutation = graphql(`
  mutation DeleteDiscountCode($id: Int!) {
    deleteDiscountCode(id: $id)
  }
`);
