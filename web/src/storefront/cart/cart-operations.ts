import { graphql } from '../../apollo/generated';

export const CartQuoteQuery = graphql(`
  query CartQuote($lines: [CartLineInput!]!, $discountCode: String) {
    cartQuote(lines: $lines, discountCode: $discountCode) {
      subtotal
      discount
      discountCode
      discountName
      discountKind
      total
      itemCount
      droppedProductIds
      lines {
        index
        quantity
        unitPrice
        lineTotal
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
