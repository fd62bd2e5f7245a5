import { graphql } from '../../apollo/generated';

export const ShopCategoriesQuery = graphql(`
  query ShopCategories {
    categories {
      id
      name
      parentId
      imageThumbnailPath
    }
  }
`);

export const ShopProductsQuery = graphql(`
  query ShopProducts($query: String, $categoryId: Int, $productTypeId: Int, $first: Int, $after: String) {
    searchProducts(query: $query, categoryId: $categoryId, productTypeId: $productTypeId, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          ...ProductTile_product
        }
      }
    }
  }
`);
