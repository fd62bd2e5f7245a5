import type { ApolloCache } from '@apollo/client';
import type { CategoryProductsQuery as CategoryProductsData, ProductListFieldsFragment } from '../../apollo/generated/graphql';
import { CategoriesQuery, CategoryProductsQuery } from './catalogue-operations';

/** How many products the list asks for at a time. */
export const PRODUCT_PAGE = 50;

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || 0;

type ProductPage = CategoryProductsData['products'];

function updateProductList(cache: ApolloCache, categoryId: number, update: (page: ProductPage) => ProductPage): void {
  cache.updateQuery({ query: CategoryProductsQuery, variables: { categoryId, first: PRODUCT_PAGE } }, (data) => (data ? { products: update(data.products) } : data));
}

/**
 * Puts a saved product into its category's cached list, in name order, and takes it out of the list
 * it left when it changed category. A product that sorts past the loaded part of a longer list is
 * left for "Load more" to bring.
 */
export function placeProduct(cache: ApolloCache, product: ProductListFieldsFragment, options: { created: boolean; previousCategoryId?: number }): void {
  const moved = options.previousCategoryId !== undefined && options.previousCategoryId !== product.categoryId;
  if (moved) removeProductFromList(cache, options.previousCategoryId!, product.id);
  const added = options.created || moved ? 1 : 0;
  updateProductList(cache, product.categoryId, (page) => {
    const others = page.edges.filter((edge) => edge.node.id !== product.id);
    const last = others.at(-1)?.node;
    const beyond = page.pageInfo.hasNextPage && last !== undefined && byName(product, last) > 0;
    const edges = beyond ? others : [...others, { __typename: 'ProductEdge' as const, node: product }].sort((a, b) => byName(a.node, b.node));
    return { ...page, edges, totalCount: page.totalCount + added };
  });
}

function removeProductFromList(cache: ApolloCache, categoryId: number, productId: number): void {
  updateProductList(cache, categoryId, (page) => {
    const edges = page.edges.filter((edge) => edge.node.id !== productId);
    return edges.length === page.edges.length ? page : { ...page, edges, totalCount: Math.max(0, page.totalCount - 1) };
  });
}

/** Takes a deleted product out of its category's list and out of the cache. */
export function removeProduct(cache: ApolloCache, product: { id: number; categoryId: number }): void {
  removeProductFromList(cache, product.categoryId, product.id);
  cache.evict({ id: cache.identify({ __typename: 'Product', id: product.id }) });
  cache.gc();
}

/** Takes deleted categories (a category and its subtree) out of the tree, with their product lists. */
export function removeCategories(cache: ApolloCache, ids: readonly number[]): void {
  const gone = new Set(ids);
  cache.updateQuery({ query: CategoriesQuery }, (data) => (data ? { categories: data.categories.filter((c) => !gone.has(c.id)) } : data));
  for (const id of ids) {
    cache.evict({ id: 'ROOT_QUERY', fieldName: 'products', args: { categoryId: id } });
    cache.evict({ id: cache.identify({ __typename: 'Category', id }) });
  }
  cache.gc();
}
