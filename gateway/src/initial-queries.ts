/**
 * The operations whose results a page carries in its HTML (see initial-state.ts), written as the
 * web client writes them, so that the client finds their results in its cache under the same
 * fields and variables. A unit test (tests/unit/initial-queries.test.ts) holds them equal to the
 * client's documents.
 */
const IMAGE = 'id filePath thumbnailPath width height srcSet';

const PRODUCT_TILE = `fragment ProductTile_product on Product { id name price compareAtPrice productTypeId mainImage { ${IMAGE} } }`;

export const INITIAL_QUERIES = {
  ShopCategories: `query ShopCategories { categories { id name parentId imageThumbnailPath } }`,

  ShopProductTypes: `query ShopProductTypes { productTypes { id name } }`,

  ShopProducts: `query ShopProducts($query: String, $categoryId: Int, $productTypeId: Int, $first: Int, $after: String, $sort: ProductSort, $minPrice: Decimal, $maxPrice: Decimal, $onSale: Boolean, $locale: String) {
    searchProducts(query: $query, categoryId: $categoryId, productTypeId: $productTypeId, first: $first, after: $after, sort: $sort, minPrice: $minPrice, maxPrice: $maxPrice, onSale: $onSale, locale: $locale) {
      totalCount pageInfo { hasNextPage endCursor } edges { node { id ...ProductTile_product } }
    }
  }
  ${PRODUCT_TILE}`,

  StoreProduct: `query StoreProduct($id: Int!, $locale: String) {
    product(id: $id, locale: $locale) {
      id name description price compareAtPrice status tags productTypeId
      mainImage { ${IMAGE} }
      productType { id name }
      associatedImages { id filePath thumbnailPath friendlyName width height srcSet }
      eGreetingCard {
        messageLocation fontName defaultMessage
        coverImage { ${IMAGE} } greetingImage { ${IMAGE} } backImage { ${IMAGE} }
        song1 { id filePath friendlyName } song2 { id filePath friendlyName } song3 { id filePath friendlyName }
      }
    }
  }`,

  BlogPosts: `query BlogPosts($first: Int, $after: String, $status: BlogPostStatus) {
    blogPosts(first: $first, after: $after, status: $status) {
      totalCount pageInfo { hasNextPage endCursor }
      edges { node { id slug title excerpt status publishedAt updatedAt coverImage { ${IMAGE} } } }
    }
  }`,

  BlogPost: `query BlogPost($idOrSlug: String!) {
    blogPost(idOrSlug: $idOrSlug) {
      id slug title excerpt html status publishedAt description
      author { username }
      coverImage { id filePath friendlyName thumbnailPath width height srcSet }
    }
  }`,
} as const;

export type InitialOperation = keyof typeof INITIAL_QUERIES;

/** The `sizes` the client draws a page's main picture with (the preload must ask for the same file). */
export const IMAGE_SIZES = {
  tile: '(max-width: 640px) 50vw, 240px',
  card: '(max-width: 760px) 92vw, 460px',
  gallery: '(max-width: 760px) 92vw, 500px',
} as const;

/** The shop's first page of products, and the home page's featured cards (variables as the client sends them). */
export const SHOP_PAGE_SIZE = 24;
export const FEATURED_CARDS = { productTypeId: 1, first: 8 } as const;
export const BLOG_PAGE_SIZE = 10;
