import { graphql } from '../../../apollo/generated';

/** Products to choose from (a sale's, a discount code's), found by a few words of their name or their SKU. */
export const ProductPickerSearchQuery = graphql(`
  query ProductPickerSearch($query: String) {
    adminProducts(query: $query, first: 20) {
      edges {
        node {
          id
          name
          sku
          status
          regularPrice
        }
      }
    }
  }
`);

/** A chosen product's name (answered from the cache when a search has already brought it). */
export const ProductPickerNameQuery = graphql(`
  query ProductPickerName($id: Int!) {
    product(id: $id) {
      id
      name
    }
  }
`);
