import { useEffect, useEffectEvent, useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { Button, Callout, Checkbox, HTMLSelect, InputGroup, Spinner } from '@blueprintjs/core';
import { ProductTile } from '../common/ProductTile';
import { useDebounced } from '../common/use-debounced';
import { useUrlParams } from '../../common/url-params';
import { CategoryNav } from './CategoryNav';
import { ShopCategoriesQuery, ShopProductsQuery, ShopProductTypesQuery } from './shop-operations';
import { pageLocale } from '../../i18n/page-intl';
import type { ProductSort } from '../../apollo/generated/graphql';
import '../common/storefront.css';
import './shop.css';
import { EmptyState } from '../../common/EmptyState';

const PAGE = 24;
/** The tiles a phone shows first (two rows of two): their pictures are fetched at once. */
const FIRST_IN_VIEW = 4;
/** The e-greeting card type: its tiles need no type named (the shop is mostly cards). */
const CARD_TYPE = 1;

/** "Sort by", as the address spells it (`?sort=`). */
const SORTS: { param: string; sort: ProductSort; label: string }[] = [
  { param: 'name', sort: 'NAME', label: 'Name' },
  { param: 'newest', sort: 'NEWEST', label: 'Newest' },
  { param: 'price_asc', sort: 'PRICE_ASC', label: 'Price: low to high' },
  { param: 'price_desc', sort: 'PRICE_DESC', label: 'Price: high to low' },
];

/** The price ranges of the filter, as `min_price`/`max_price` in the address. */
const PRICES: { value: string; label: string; min: string | null; max: string | null }[] = [
  { value: '', label: 'Any price', min: null, max: null },
  { value: '-4.99', label: 'Under $5', min: null, max: '4.99' },
  { value: '5-15', label: '$5 to $15', min: '5', max: '15' },
  { value: '15.01-', label: 'Over $15', min: '15.01', max: null },
];

/** /shop: every product, by category, search, type and price, in an order; all live in the URL (`?category=&q=&type=&min_price=&max_price=&on_sale=1&sort=`). */
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

  const sort = SORTS.find((s) => s.param === params.get('sort')) ?? null;
  const typeId = Number(params.get('type')) || null;
  const [minPrice, maxPrice] = [params.get('min_price'), params.get('max_price')];
  const price = PRICES.find((p) => p.min === minPrice && p.max === maxPrice) ?? PRICES[0]!;
  const onSale = params.get('on_sale') === '1';
  const categories = useQuery(ShopCategoriesQuery);
  const types = useQuery(ShopProductTypesQuery);
  const typeName = (id: number) => (id === CARD_TYPE ? null : (types.data?.productTypes.find((t) => t.id === id)?.name ?? null));
  // The plain page's variables are the ones the server inlines; a sort or a filter only adds its own.
  const products = useQuery(ShopProductsQuery, {
    variables: { query: query || null, categoryId, first: PAGE, ...(typeId ? { productTypeId: typeId } : {}), ...(sort ? { sort: sort.sort } : {}), ...(minPrice ? { minPrice } : {}), ...(maxPrice ? { maxPrice } : {}), ...(onSale ? { onSale } : {}), locale: pageLocale() },
    notifyOnNetworkStatusChange: true,
  });
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
          <div className="shop-filters">
            <label>
              <span aria-hidden="true">Sort by</span>
              <HTMLSelect aria-label="Sort by" value={sort?.param ?? 'name'} onChange={(event) => changeParams({ sort: event.currentTarget.value === 'name' ? null : event.currentTarget.value })} options={SORTS.map((s) => ({ value: s.param, label: s.label }))} />
            </label>
            <label>
              <span aria-hidden="true">Type</span>
              <HTMLSelect
                aria-label="Type"
                value={typeId ? String(typeId) : ''}
                onChange={(event) => changeParams({ type: event.currentTarget.value || null })}
                options={[{ value: '', label: 'All types' }, ...(types.data?.productTypes ?? []).map((t) => ({ value: String(t.id), label: t.name }))]}
              />
            </label>
            <label>
              <span aria-hidden="true">Price</span>
              <HTMLSelect
                aria-label="Price"
                value={price.value}
                onChange={(event) => {
                  const next = PRICES.find((p) => p.value === event.currentTarget.value) ?? PRICES[0]!;
                  changeParams({ min_price: next.min, max_price: next.max });
                }}
                options={PRICES.map((p) => ({ value: p.value, label: p.label }))}
              />
            </label>
            <Checkbox className="shop-on-sale" label="On sale" checked={onSale} onChange={(event) => changeParams({ on_sale: event.currentTarget.checked ? '1' : null })} />
          </div>
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
          <EmptyState
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
                <ProductTile key={node.id} product={node} priority={index < FIRST_IN_VIEW} typeName={typeName(node.productTypeId)} />
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
