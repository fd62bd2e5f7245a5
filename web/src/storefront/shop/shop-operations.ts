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
  query ShopProducts($query: String, $categoryId: Int, $productTypeId: Int, $first: Int, $after: String, $sort: ProductSort, $minPrice: Decimal, $maxPrice: Decimal, $onSale: Boolean, $locale: String) {
    searchProducts(query: $query, categoryId: $categoryId, productTypeId: $productTypeId, first: $first, after: $after, sort: $sort, minPrice: $minPrice, maxPrice: $maxPrice, onSale: $onSale, locale: $locale) {
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

export const ShopProductTypesQuery = graphql(`
  query ShopProductTypes {
    productTypes {
      id
      name
    }
  }
`);
