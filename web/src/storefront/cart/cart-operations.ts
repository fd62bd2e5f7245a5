import { graphql } from '../../apollo/generated';

export const CartQuoteQuery = graphql(`
  query CartQuote($lines: [CartLineInput!]!) {
    cartQuote(lines: $lines) {
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
          productTypeId
        }
      }
    }
  }
`);
