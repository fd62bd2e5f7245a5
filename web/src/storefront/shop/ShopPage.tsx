import { useEffect, useEffectEvent, useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { Button, Callout, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import { ProductTile } from '../common/ProductTile';
import { useDebounced } from '../common/use-debounced';
import { useUrlParams } from '../../common/url-params';
import { CategoryNav } from './CategoryNav';
import { ShopCategoriesQuery, ShopProductsQuery } from './shop-operations';
import '../common/storefront.css';
import './shop.css';

const PAGE = 24;
/** The tiles a phone shows first (two rows of two): their pictures are fetched at once. */
const FIRST_IN_VIEW = 4;

/** /shop: every product, by category and by search; both live in the URL (`?category=&q=`). */
export default function ShopPage() {
  const [params, changeParams] = useUrlParams();
  const categoryId = Number(params.get('category')) || null;
  const [text, setText] = useState(params.get('q') ?? '');
  const query = useDebounced(text.trim(), 300);

  // The search typed, into the address; nothing to do when it is there already (as on arriving at the page).
  const showQuery = useEffectEvent((value: string) => {
    if ((params.get('q') ?? '') === value) return;
    changeParams({ q: value }, { replace: true });
  });
  useEffect(() => showQuery(query), [query]);

  const categories = useQuery(ShopCategoriesQuery);
  const products = useQuery(ShopProductsQuery, { variables: { query: query || null, categoryId, first: PAGE }, notifyOnNetworkStatusChange: true });
  const category = categories.data?.categories.find((c) => c.id === categoryId);
  const connection = products.data?.searchProducts;

  const selectCategory = (id: number | null) => changeParams({ category: id ? String(id) : null });

  return (
    <div className="store-page shop-page">
      <aside className="shop-sidebar">{categories.data && <CategoryNav categories={categories.data.categories} selected={categoryId} onSelect={selectCategory} />}</aside>
      <section className="shop-main" aria-label="Products">
        <header className="shop-header">
          <h1>{category?.name ?? 'Shop'}</h1>
          <InputGroup
            className="shop-search"
            type="search"
            leftIcon="search"
            placeholder="Search cards, albums and collections"
            aria-label="Search products"
            value={text}
            onValueChange={setText}
          />
        </header>
        {connection && (
          <p className="shop-count muted" aria-live="polite">
            {connection.totalCount === 1 ? '1 product' : `${connection.totalCount} products`}
            {query ? ` for “${query}”` : ''}
          </p>
        )}
        {products.error && !connection ? (
          <Callout intent="danger" title="The shop could not be loaded">
            <p>{products.error.message}</p>
            <Button text="Try again" onClick={() => void products.refetch()} />
          </Callout>
        ) : !connection ? (
          <Spinner className="store-state" />
        ) : connection.edges.length === 0 ? (
          <NonIdealState
            className="store-state"
            icon="search"
            title="Nothing found"
            description={query ? `No product matches “${query}”${category ? ` in ${category.name}` : ''}.` : 'There is nothing in this category yet.'}
            action={query || categoryId ? <Button text="Show everything" onClick={() => { setText(''); selectCategory(null); }} /> : undefined}
          />
        ) : (
          <>
            <div className="product-grid">
              {connection.edges.map(({ node }, index) => (
                <ProductTile key={node.id} product={node} priority={index < FIRST_IN_VIEW} />
              ))}
            </div>
            {connection.pageInfo.hasNextPage && (
              <div className="shop-more">
                <Button
                  text="Load more"
                  loading={products.loading}
                  onClick={() => void products.fetchMore({ variables: { after: connection.pageInfo.endCursor } })}
                />
              </div>
            )}
          </>
        )}
      </section>
    </div>
  );
}
