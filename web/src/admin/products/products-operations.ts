import { graphql } from '../../apollo/generated';

/** The console's list of every product (contract section 16). */
export const AdminProductsQuery = graphql(`
  query AdminProducts($query: String, $categoryId: Int, $productTypeId: Int, $status: ProductStatus, $onSale: Boolean, $sort: AdminProductSort, $first: Int, $after: String) {
    adminProducts(query: $query, categoryId: $categoryId, productTypeId: $productTypeId, status: $status, onSale: $onSale, sort: $sort, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          name
          sku
          price
          compareAtPrice
          status
          categoryId
          productTypeId
          updatedAt
          mainImageThumbnailPath
        }
      }
    }
  }
`);

export const BulkUpdateProductsMutation = graphql(`
  mutation BulkUpdateProducts($ids: [Int!]!, $action: BulkProductActionInput!) {
    bulkUpdateProducts(ids: $ids, action: $action) {
      updated
      undoId
    }
  }
`);

export const UndoBulkUpdateProductsMutation = graphql(`
  mutation UndoBulkUpdateProducts($undoId: String!) {
    undoBulkUpdateProducts(undoId: $undoId) {
      restored
      skipped
    }
  }
`);
