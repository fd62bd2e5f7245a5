import { graphql } from '../../apollo/generated';

export const CartQuoteQuery = graphql(`
  query CartQuote($lines: [CartLineInput!]!, $discountCode: String, $locale: String) {
    cartQuote(lines: $lines, discountCode: $discountCode, locale: $locale) {
      subtotal
      discount
      discountCode
      discountName
      discountKind
      membershipName
      total
      itemCount
      droppedProductIds
      lines {
        index
        quantity
        unitPrice
        lineTotal
        regularUnitPrice
        memberNote
        giftPlanName
        product {
          id
          name
          mainImageThumbnailPath
          compareAtPrice
          productTypeId
        }
      }
    }
  }
`);
