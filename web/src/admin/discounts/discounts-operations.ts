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
    productIds
    categoryIds
    minSubtotal
    oncePerCustomer
    firstOrderOnly
  }
`);

/** The categories a code may be limited to (each with its subcategories). */
export const DiscountCategoriesQuery = graphql(`
  query DiscountCategories {
    categories {
      id
      name
      parentId
    }
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

/** What the Discounts view shows of an automatic discount. */
export const AutomaticDiscountFieldsFragment = graphql(`
  fragment AutomaticDiscountFields on AutomaticDiscount {
    id
    name
    kind
    minCards
    percentOff
    minSubtotal
    amountOff
    startsAt
    endsAt
  }
`);

export const AutomaticDiscountsQuery = graphql(`
  query AutomaticDiscounts {
    automaticDiscounts {
      ...AutomaticDiscountFields
    }
  }
`);

export const CreateAutomaticDiscountMutation = graphql(`
  mutation CreateAutomaticDiscount($input: AutomaticDiscountInput!) {
    createAutomaticDiscount(input: $input) {
      ...AutomaticDiscountFields
    }
  }
`);

export const DeleteAutomaticDiscountMutation = graphql(`
  mutation DeleteAutomaticDiscount($id: Int!) {
    deleteAutomaticDiscount(id: $id)
  }
`);
